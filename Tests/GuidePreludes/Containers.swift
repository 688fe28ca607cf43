// What Containers.md takes for granted: the home folder.
import Foundation

let home = URL(fileURLWithPath: "/tmp/shop-home")
