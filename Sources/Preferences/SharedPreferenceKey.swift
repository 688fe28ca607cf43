/// Keys of an application's preferences that several of EnvScript's modules read, named once here so
/// that they need not import one another for a name.
package enum SharedPreferenceKey {
    /// Where the flag overrides of a container live by default (`OverridesTweakProvider`'s key): a
    /// dictionary of features, each a dictionary of variables. `container diff` reads it to tell flag
    /// overrides from state.
    package static let tweakOverrides = "EnvScript.TweakOverrides"
}
