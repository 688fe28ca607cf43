import AppState

/// AppState's `Application` under a name of its own, for the files that also import Hummingbird, whose
/// `Application` is the server (the module's name cannot qualify it: `AppState` is also the property
/// wrapper's name).
typealias StateApplication = Application
