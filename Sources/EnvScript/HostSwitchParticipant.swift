import AppState
import Containers
import Foundation
import Logging
#if RemoteFlags
import RemoteTweaks
#endif
import Tweaks

/// The host's part in every switch, and in every clean of the active container: the state (and with
/// it the preferences that hold tweak overrides) is written out before the home changes; after it the
/// state becomes the new container's, remote tweak providers answer from the new container's kept copy
/// (and fetch anew in the background), and the tweak cache is dropped, before any did-change hook runs.
final class HostSwitchParticipant: SwitchParticipant {
    private let containers: AppContainer
    private let application: Application
    private let tweaks: TweakManager
    #if RemoteFlags
    private let remoteTweaks: RemoteTweakProviders
    #endif
    private let logger: Logger

    #if RemoteFlags
    init(
        containers: AppContainer, application: Application, tweaks: TweakManager,
        remoteTweaks: RemoteTweakProviders, logger: Logger
    ) {
        self.containers = containers
        self.application = application
        self.tweaks = tweaks
        self.remoteTweaks = remoteTweaks
        self.logger = logger
    }
    #else
    init(containers: AppContainer, application: Application, tweaks: TweakManager, logger: Logger) {
        self.containers = containers
        self.application = application
        self.tweaks = tweaks
        self.logger = logger
    }
    #endif

    func prepareForSwitch() throws {
        try application.prepareForSwitch()
    }

    func containerDidSwitch() {
        do {
            // The preferences write what was changed since the switch's flush to the container left,
            // then make every store follow the new one (ContainerStoreCoordinator.followLiveFile).
            // The new container is already recorded as active when participants are told.
            try application.containerDidSwitch(to: try containers.activeContainer.uuid)
        } catch {
            logger.error("could not load the state of the new container: \(error)")
        }
        #if RemoteFlags
        remoteTweaks.containerDidSwitch()
        #endif
        tweaks.resetCache()
    }

    func containerWasRemoved(_ uuid: UUID) {
        application.forgetMemoryState(ofContainer: uuid)
    }
}
