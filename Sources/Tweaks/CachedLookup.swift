/// A cached lookup in a box: handing it out of the cache's lock costs one retain.
final class CachedLookup: Sendable {
    let lookup: TweakLookup

    init(_ lookup: TweakLookup) {
        self.lookup = lookup
    }
}
