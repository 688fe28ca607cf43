/// A small, fast random number generator with a seed (SplitMix64), so a property test that fails can
/// be run again with the seed it reports.
package struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    /// A generator that always gives the same numbers for the same seed.
    package init(seed: Int) {
        state = UInt64(bitPattern: Int64(seed))
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
