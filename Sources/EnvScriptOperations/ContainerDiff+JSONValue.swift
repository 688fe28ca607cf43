package import JSONValues
#if Sharing
package import ContainerSharing
import Foundation

extension JSONValue {
    /// A diff as Lua and the control API see it: the `--json` shape with snake_case keys (`size_before`,
    /// `keys`...).
    package init(diffOf diff: ContainerDiff) throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        self = try JSONDecoder().decode(JSONValue.self, from: encoder.encode(diff))
    }
}
#endif
