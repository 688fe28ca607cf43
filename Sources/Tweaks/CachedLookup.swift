/// A cached lookup in a box: handing it out of the cache's lock costs one retain rather than a copy of
/// every string of the tweak, and the value sits at the top for the typed reads that need nothing else.
final class CachedLookup: Sendable {
    /// The value in effect.
    let value: JSONValue
    let lookup: TweakLookup

    init(_ lookup: TweakLookup) {
        self.value = lookup.tweak.value
        self.lookup = lookup
    }
}
