public import Preferences

/// Keeps a change observer registered: `cancel()` removes it, and so does dropping the last reference,
/// so an observer never outlives whoever asked for it. The observation type of the preferences the
/// state is built on.
public typealias StateObservation = PreferencesObservation
