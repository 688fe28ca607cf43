// What RemoteTweaks.md takes for granted: the home and the other providers of the stack.
import Foundation
import Tweaks

let home = URL(fileURLWithPath: "/tmp/shop-home")
let overrides = EphemeralTweakProvider(name: "overrides")
let shipped = EphemeralTweakProvider(name: "shipped")
