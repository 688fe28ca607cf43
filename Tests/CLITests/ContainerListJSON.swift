import Foundation

/// `envscript container list --json` read back: `{"containers": [...], "damaged": [...]}`, the control
/// API's shape; nil when the output is not that.
struct ContainerListJSON {
    var containers: [[String: Any]]
    var damaged: [[String: Any]]

    init?(_ output: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
              let containers = object["containers"] as? [[String: Any]], let damaged = object["damaged"] as? [[String: Any]]
        else { return nil }
        self.containers = containers
        self.damaged = damaged
    }
}
