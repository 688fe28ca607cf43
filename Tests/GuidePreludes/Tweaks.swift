// What Tweaks.md takes for granted: the app's resources folder.
import Foundation

let resources = URL(fileURLWithPath: "/usr/share/shop")
