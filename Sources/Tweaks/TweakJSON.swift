import Foundation

/// Reads tweak documents in JustTweak's format:
///
/// ```json
/// { "feature": { "variable": { "Title": "…", "Description": "…", "Group": "…", "Value": true,
///                              "Encrypted": false, "GeneratedPropertyName": "…" } } }
/// ```
///
/// `Value` is required: a Boolean, a number, a string, or an array or object of those (no null); the
/// other fields are optional and
/// must be strings (`Encrypted` a Boolean). Unknown fields are ignored, so newer files still load.
/// Every problem is a ``TweakError/invalidJSON(file:line:column:key:reason:)`` naming the place.
public enum TweakJSON {
    /// Parses a tweak document. `file` names it in errors (a path or a URL); `source` is put in each
    /// ``Tweak/source``.
    public static func parse(_ data: Data, file: String, source: String = "") throws -> [Tweak] {
        try parseLocated(data, file: file, source: source).map(\.tweak)
    }

    /// Parses a tweak document like ``parse(_:file:source:)``, keeping where each tweak and each of its
    /// fields is, for tools that report problems by line (the accessor generator).
    public static func parseLocated(_ data: Data, file: String, source: String = "") throws -> [LocatedTweak] {
        let root: JSONScanner.Node
        do {
            root = try JSONScanner.parse(data)
        } catch {
            throw TweakError.invalidJSON(
                file: file, line: error.position.line, column: error.position.column, key: nil, reason: error.message)
        }
        func fail(_ position: JSONScanner.Position, _ key: [String], _ reason: String) -> TweakError {
            .invalidJSON(
                file: file, line: position.line, column: position.column,
                key: key.isEmpty ? nil : key.reduce("") { path, part in
                    path.isEmpty || part.hasPrefix("[") ? path + part : path + "." + part
                }, reason: reason)
        }

        guard case .object(let features) = root.value else {
            throw fail(root.position, [], "the document must be an object of features, found \(root.value.typeName)")
        }
        var tweaks: [LocatedTweak] = []
        for feature in features {
            guard case .object(let variables) = feature.node.value else {
                throw fail(
                    feature.node.position, [feature.key],
                    "a feature must be an object of variables, found \(feature.node.value.typeName)")
            }
            for variable in variables {
                let path = [feature.key, variable.key]
                guard case .object(let fields) = variable.node.value else {
                    throw fail(
                        variable.node.position, path,
                        "a variable must be an object with a \"Value\", found \(variable.node.value.typeName)")
                }
                var tweak = Tweak(feature: feature.key, variable: variable.key, value: .bool(false), source: source)
                var hasValue = false
                var fieldLocations: [String: LocatedTweak.Location] = [:]
                for field in fields {
                    let fieldPath = path + [field.key]
                    fieldLocations[field.key] = LocatedTweak.Location(line: field.keyPosition.line, column: field.keyPosition.column)
                    func string() throws -> String {
                        guard case .string(let text) = field.node.value else {
                            throw fail(field.node.position, fieldPath, "must be a string, found \(field.node.value.typeName)")
                        }
                        return text
                    }
                    switch field.key {
                    case "Value":
                        tweak.value = try tweakValue(of: field.node, path: fieldPath, fail: fail)
                        hasValue = true
                    case "Title": tweak.title = try string()
                    case "Description": tweak.description = try string()
                    case "Group": tweak.group = try string()
                    case "GeneratedPropertyName": tweak.generatedPropertyName = try string()
                    case "Encrypted":
                        guard case .bool(let flag) = field.node.value else {
                            throw fail(field.node.position, fieldPath, "must be true or false, found \(field.node.value.typeName)")
                        }
                        tweak.isEncrypted = flag
                    default:
                        continue
                    }
                }
                guard hasValue else { throw fail(variable.node.position, path, "missing \"Value\"") }
                tweaks.append(
                    LocatedTweak(
                        tweak: tweak,
                        location: LocatedTweak.Location(line: variable.keyPosition.line, column: variable.keyPosition.column),
                        fieldLocations: fieldLocations))
            }
        }
        return tweaks
    }

    /// Reads and parses a tweak file.
    ///
    /// - Throws: ``TweakError/readFailed(file:reason:)`` or ``TweakError/invalidJSON(file:line:column:key:reason:)``.
    /// The tweak value of a parsed JSON value; a null, at any depth, is refused where it stands.
    static func tweakValue(
        of node: JSONScanner.Node, path: [String],
        fail: (JSONScanner.Position, [String], String) -> TweakError
    ) throws -> TweakValue {
        switch node.value {
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .array(let elements):
            return .array(try elements.enumerated().map { index, element in
                try tweakValue(of: element, path: path + ["[\(index)]"], fail: fail)
            })
        case .object(let members):
            var fields: [String: TweakValue] = [:]
            for member in members {
                fields[member.key] = try tweakValue(of: member.node, path: path + [member.key], fail: fail)
            }
            return .object(fields)
        case .null:
            throw fail(node.position, path, "null is not a tweak value; leave the field out instead")
        }
    }

    public static func load(_ url: URL, source: String = "") throws -> [Tweak] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw TweakError.readFailed(file: url.path, reason: (error as NSError).localizedDescription)
        }
        return try parse(data, file: url.path, source: source)
    }
}
