// What ComingFromJustTweak.md takes for granted: folders, a key file and the reader's old cipher.
import Foundation

let home = URL(fileURLWithPath: "/tmp/shop-home")
let resources = URL(fileURLWithPath: "/usr/share/shop")
let keyFile = URL(fileURLWithPath: "/tmp/shop.tweak-keys")
func legacyOpen(_ sealed: String) throws -> String { sealed }
