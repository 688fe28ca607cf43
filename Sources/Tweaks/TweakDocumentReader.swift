import Foundation

/// Reads a tweak document in JustTweak's format (see ``TweakJSON``), going on past a problem so that
/// every problem of the document is found at once: a variable with a problem is left out and the next
/// one is read. ``TweakJSON`` throws the first problem; `envscript tweak validate` lists them all,
/// together with the remarks only a validator makes (unknown fields). A name written twice in one object
/// is a syntax error of the scanner.
struct TweakDocumentReader {
    /// The fields a variable may have.
    static let knownFields = ["Title", "Description", "Group", "Value", "Encrypted", "GeneratedPropertyName"]

    let file: String
    let source: String
    /// The tweaks read, in document order.
    private(set) var tweaks: [LocatedTweak] = []
    /// The problems that make the document unusable, each an ``TweakError/Code/invalidJSON``.
    private(set) var problems: [TweakError] = []
    /// What loads but is likely a mistake: an unknown field (loading ignores it, so newer files still
    /// load).
    private(set) var remarks: [TweakError] = []

    /// Reads `data`; the result is in ``tweaks``, ``problems`` and ``remarks``.
    init(_ data: Data, file: String, source: String) {
        self.file = file
        self.source = source
        let root: JSONScanner.Node
        do {
            root = try JSONScanner.parse(data)
        } catch {
            problems.append(.invalidJSON(
                file: file, line: error.position.line, column: error.position.column, key: nil, reason: error.message))
            return
        }
        read(root)
    }

    private func problem(_ position: JSONScanner.Position, _ key: [String], _ reason: String) -> TweakError {
        .invalidJSON(
            file: file, line: position.line, column: position.column,
            key: key.isEmpty ? nil : key.reduce("") { path, part in
                path.isEmpty || part.hasPrefix("[") ? path + part : path + "." + part
            }, reason: reason)
    }

    private mutating func read(_ root: JSONScanner.Node) {
        guard case .object(let features) = root.value else {
            problems.append(problem(root.position, [], "the document must be an object of features, found \(root.value.typeName)"))
            return
        }
        for feature in features {
            guard case .object(let variables) = feature.node.value else {
                problems.append(problem(
                    feature.node.position, [feature.key], "a feature must be an object of variables, found \(feature.node.value.typeName)"))
                continue
            }
            for variable in variables {
                do {
                    tweaks.append(try readVariable(variable, feature: feature.key))
                } catch let error as TweakError {
                    problems.append(error)
                } catch {
                    problems.append(problem(variable.node.position, [feature.key, variable.key], "\(error)"))
                }
            }
        }
    }

    private mutating func readVariable(_ variable: JSONScanner.Member, feature: String) throws -> LocatedTweak {
        let path = [feature, variable.key]
        guard case .object(let fields) = variable.node.value else {
            throw problem(variable.node.position, path, "a variable must be an object with a \"Value\", found \(variable.node.value.typeName)")
        }
        var tweak = Tweak(feature: feature, variable: variable.key, value: .bool(false), source: source)
        var hasValue = false
        var fieldLocations: [String: LocatedTweak.Location] = [:]
        for field in fields {
            let fieldPath = path + [field.key]
            fieldLocations[field.key] = LocatedTweak.Location(line: field.keyPosition.line, column: field.keyPosition.column)
            func string() throws -> String {
                guard case .string(let text) = field.node.value else {
                    throw problem(field.node.position, fieldPath, "must be a string, found \(field.node.value.typeName)")
                }
                return text
            }
            switch field.key {
            case "Value":
                tweak.value = try Self.tweakValue(of: field.node, path: fieldPath, problem: problem)
                hasValue = true
            case "Title": tweak.title = try string()
            case "Description": tweak.description = try string()
            case "Group": tweak.group = try string()
            case "GeneratedPropertyName": tweak.generatedPropertyName = try string()
            case "Encrypted":
                guard case .bool(let flag) = field.node.value else {
                    throw problem(field.node.position, fieldPath, "must be true or false, found \(field.node.value.typeName)")
                }
                tweak.isEncrypted = flag
            default:
                remarks.append(problem(field.keyPosition, fieldPath, Self.unknownFieldReason(field.key)))
            }
        }
        guard hasValue else { throw problem(variable.node.position, path, "missing \"Value\"") }
        return LocatedTweak(
            tweak: tweak,
            location: LocatedTweak.Location(line: variable.keyPosition.line, column: variable.keyPosition.column),
            fieldLocations: fieldLocations)
    }

    /// "unknown field 'Titel' (ignored when loading); did you mean 'Title'?"
    static func unknownFieldReason(_ name: String) -> String {
        let reason = "unknown field '\(name)', ignored when loading"
        let suggestion = NearNames.suggestions(for: name, among: knownFields, limit: 1)
        return reason + (suggestion.isEmpty ? "; the fields are " + knownFields.joined(separator: ", ") : NearNames.didYouMean(suggestion))
    }

    /// The tweak value of a parsed JSON value; a null, at any depth, is refused where it stands.
    static func tweakValue(
        of node: JSONScanner.Node, path: [String],
        problem: (JSONScanner.Position, [String], String) -> TweakError
    ) throws -> JSONValue {
        switch node.value {
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .array(let elements):
            return .array(try elements.enumerated().map { index, element in
                try tweakValue(of: element, path: path + ["[\(index)]"], problem: problem)
            })
        case .object(let members):
            var fields: [String: JSONValue] = [:]
            for member in members {
                fields[member.key] = try tweakValue(of: member.node, path: path + [member.key], problem: problem)
            }
            return .object(fields)
        case .null:
            throw problem(node.position, path, "null is not a tweak value; leave the field out instead")
        }
    }
}
