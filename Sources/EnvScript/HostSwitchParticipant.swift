import Containers
import Logging
import Preferences
import Tweaks

/// The host's part in every switch: the preferences are written out before the home changes and read
/// again after, and the tweak cache is dropped, so overrides follow the active container.
final class HostSwitchParticipant: SwitchParticipant {
    private let preferences: PreferencesStore
    private let tweaks: TweakManager
    private let logger: Logger

    init(preferences: PreferencesStore, tweaks: TweakManager, logger: Logger) {
        self.preferences = preferences
        self.tweaks = tweaks
        self.logger = logger
    }

    func prepareForSwitch() throws {
        try preferences.flush()
    }

    func containerDidSwitch() {
        do {
            try preferences.reload()
        } catch {
            logger.error("could not read the preferences of the new container: \(error)")
        }
        tweaks.resetCache()
    }
}
