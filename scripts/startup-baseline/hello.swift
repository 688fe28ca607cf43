// The baseline of scripts/bench's start-up figures: a Swift program that prints with Foundation, built
// with plain `swiftc -O` (and once more with -static-stdlib) in the same run as envscript.
import Foundation

print(String(format: "Hello from %@!", "Foundation"))
