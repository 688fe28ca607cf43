// What Tweaks.md takes for granted: the app's resources folder and the signed-in user's id.
import Foundation

let resources = URL(fileURLWithPath: "/usr/share/shop")
let userID = "user-1"
