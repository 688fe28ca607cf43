import AppState
import Containers
import Logging
import Tweaks

/// The host's part in every switch: stored state and tweak overrides (the preferences) are written
/// out before the home changes; after it the preferences are read again and the tweak cache dropped.
/// The rest of the state follows in the host's did-change hook, which knows the new container.
final class HostSwitchParticipant: SwitchParticipant {
    private let application: Application
    private let tweaks: TweakManager
    private let logger: Logger

    init(application: Application, tweaks: TweakManager, logger: Logger) {
        self.application = application
        self.tweaks = tweaks
        self.logger = logger
    }

    func prepareForSwitch() throws {
        try application.prepareForSwitch()
    }

    func containerDidSwitch() {
        do {
            try application.preferences.reload()
        } catch {
            logger.error("could not read the preferences of the new container: \(error)")
        }
        tweaks.resetCache()
    }
}
