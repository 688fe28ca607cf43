import EnvScript
import Tweaks

/// What the tweak commands say about the stack they see: that it is the overrides alone, when no
/// start-up script gave it other providers (a command run away from the application's folder, on a
/// home that records no script), and which flags a mistyped one may have meant.
enum TweakStackNote {
    /// Says on standard error, once, that the stack of `host` holds only the overrides of the active
    /// container and why, ending with `consequence` ("showing the overrides only"); nothing when a
    /// start-up script set a stack with other providers.
    static func noteOverridesOnly(_ host: EnvScriptHost, runtime: RuntimeOptions, consequence: String = "showing the overrides only") {
        guard host.tweaks.providers.allSatisfy({ $0 is OverridesTweakProvider }) else { return }
        let reason: String
        if !runtime.startupScripts(forFiles: []).isEmpty {
            reason = "the start-up scripts set no tweak stack"
        } else if runtime.skipAutomaticInit {
            reason = "no start-up script is loaded (--no-init)"
        } else {
            reason = "no start-up script is loaded (no \(ProjectDiscovery.startupScriptName) in the current folder or above, none recorded for the home)"
        }
        printError("note: \(reason), so the tweak stack holds only the overrides of the active container: \(consequence)")
    }

    /// "; did you mean checkout.button_color?" for the flags of `host`'s stack near `feature.variable`,
    /// or nothing.
    static func didYouMean(_ feature: String, _ variable: String, in host: EnvScriptHost) -> String {
        NearNames.didYouMean(host.tweaks.nearFlags(to: feature, variable: variable), quote: "")
    }
}
