/// Takes a value the optimiser must assume is used, so a measured read is never dropped as dead code.
///
/// Neither inlined nor optimised: the caller has to produce `value` and pass it, and cannot see that
/// nothing happens to it.
@inline(never) @_optimize(none)
func blackHole<Value>(_ value: Value) {}
