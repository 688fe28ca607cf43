// What ComingFromAppContainer.md takes for granted: the home and its containers.
import Containers
import Foundation

let home = URL(fileURLWithPath: "/tmp/shop-home")
let containers = try! AppContainer(home: home)
