package import Foundation
import Tweaks

/// Reading and checking configuration files.
extension AccessorConfiguration {
    /// The keys a configuration file may have.
    package static let knownKeys = [
        "accessorName", "accessLevel", "kind", "swiftVersion", "managerPropertyName", "imports", "requiredFields",
        "types",
    ]

    /// Reads and checks the configuration file at `url` (see ``AccessorConfiguration`` for its keys).
    ///
    /// - Throws: ``AccessorGenerationError`` of kind `unreadableFile` or `invalidConfiguration`, naming the
    ///   file and the key.
    package static func load(from url: URL) throws -> AccessorConfiguration {
        let data: Data
        do {
            data = try TweakJSON.contents(of: url)
        } catch {
            throw AccessorGenerationError(unreadable: url, what: "the configuration", error)
        }
        return try parse(data, file: url.path)
    }

    /// Parses and checks a configuration document; `file` names it in errors.
    ///
    /// - Throws: ``AccessorGenerationError`` of kind `invalidConfiguration`.
    package static func parse(_ data: Data, file: String) throws -> AccessorConfiguration {
        func fail(_ key: String?, _ message: String) -> AccessorGenerationError {
            AccessorGenerationError(kind: .invalidConfiguration, file: file, key: key, message: message)
        }
        let document: ConfigurationValue
        do {
            document = try JSONDecoder().decode(ConfigurationValue.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            let cause = (context.underlyingError as NSError?)?.localizedDescription ?? context.debugDescription
            throw fail(nil, "the configuration is not valid JSON: \(cause)")
        } catch {
            throw fail(nil, "the configuration is not valid JSON: \(error)")
        }
        guard case .object(let members) = document else {
            throw fail(nil, "the configuration must be a JSON object with at least \"accessorName\", found \(document.typeName)")
        }
        if let unknown = members.keys.sorted().first(where: { !knownKeys.contains($0) }) {
            throw fail(unknown, "unknown key \"\(unknown)\"; the keys are \(knownKeys.map { "\"\($0)\"" }.joined(separator: ", "))")
        }

        func string(_ key: String) throws -> String? {
            guard let value = members[key] else { return nil }
            guard case .string(let text) = value else {
                throw fail(key, "\"\(key)\" must be a string, found \(value.typeName)")
            }
            return text
        }
        func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, _ type: Choice.Type) throws -> Choice?
        where Choice.RawValue == String {
            guard let text = try string(key) else { return nil }
            guard let choice = Choice(rawValue: text) else {
                let allowed = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                throw fail(key, "\"\(key)\" must be one of \(allowed), found \"\(text)\"")
            }
            return choice
        }
        func strings(_ key: String) throws -> [String]? {
            guard let value = members[key] else { return nil }
            guard case .array(let elements) = value else {
                throw fail(key, "\"\(key)\" must be an array of strings, found \(value.typeName)")
            }
            return try elements.map {
                guard case .string(let text) = $0 else {
                    throw fail(key, "\"\(key)\" must be an array of strings, found an element of type \($0.typeName)")
                }
                return text
            }
        }

        guard members["accessorName"] != nil else {
            throw fail("accessorName", "missing \"accessorName\", the name of the type to generate")
        }
        var configuration = AccessorConfiguration(accessorName: try string("accessorName") ?? "")
        if let level = try choice("accessLevel", AccessLevel.self) { configuration.accessLevel = level }
        if let kind = try choice("kind", Kind.self) { configuration.kind = kind }
        if let version = members["swiftVersion"] {
            configuration.swiftLanguageMode = try languageMode(version, fail: { fail("swiftVersion", $0) })
        }
        if let name = try string("managerPropertyName") { configuration.managerPropertyName = name }
        if let imports = try strings("imports") { configuration.imports = imports }
        if let names = try strings("requiredFields") {
            configuration.requiredFields = Set(
                try names.map { name in
                    guard let field = Field(rawValue: name) else {
                        let allowed = Field.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                        let hint = name == "Value" ? " (\"Value\" is always required)" : ""
                        throw fail("requiredFields", "\"requiredFields\" may list \(allowed), found \"\(name)\"\(hint)")
                    }
                    return field
                })
        }
        if let types = members["types"] {
            guard case .object(let entries) = types else {
                throw fail("types", "\"types\" must be an object of \"feature.variable\": \"SwiftType\", found \(types.typeName)")
            }
            configuration.types = try entries.mapValues { value in
                guard case .string(let name) = value else {
                    throw fail("types", "\"types\" maps flags to Swift type names (strings), found \(value.typeName)")
                }
                return name
            }
        }
        try configuration.validate(file: file)
        return configuration
    }

    /// Checks the names and the language mode.
    ///
    /// - Throws: ``AccessorGenerationError`` of kind `invalidConfiguration`, with `file` as its file.
    package func validate(file: String) throws {
        func fail(_ key: String, _ message: String) -> AccessorGenerationError {
            AccessorGenerationError(kind: .invalidConfiguration, file: file, key: key, message: message)
        }
        if let problem = SwiftIdentifier.problem(with: accessorName) {
            throw fail("accessorName", "\"accessorName\" '\(accessorName)' is not a Swift type name: \(problem)")
        }
        if SwiftIdentifier.keywords.contains(accessorName) || SwiftIdentifier.reservedMemberNames.contains(accessorName) {
            throw fail("accessorName", "\"accessorName\" '\(accessorName)' is a Swift keyword; choose another type name")
        }
        if let problem = SwiftIdentifier.problem(with: managerPropertyName) {
            throw fail(
                "managerPropertyName", "\"managerPropertyName\" '\(managerPropertyName)' is not a Swift name: \(problem)")
        }
        if SwiftIdentifier.reservedMemberNames.contains(managerPropertyName)
            || AccessorGenerator.constantNamespaces.contains(managerPropertyName)
        {
            throw fail("managerPropertyName", "\"managerPropertyName\" '\(managerPropertyName)' is reserved; choose another name")
        }
        for module in imports {
            let parts = module.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            if let problem = parts.lazy.compactMap({ SwiftIdentifier.problem(with: $0) }).first {
                throw fail("imports", "\"imports\" entry '\(module)' is not a module name: \(problem)")
            }
        }
        for (flag, type) in types.sorted(by: { $0.key < $1.key }) {
            let parts = type.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            if let problem = parts.lazy.compactMap({ SwiftIdentifier.problem(with: $0) }).first {
                throw fail("types", "\"types\" maps '\(flag)' to '\(type)', which is not a Swift type name: \(problem)")
            }
        }
        guard swiftLanguageMode >= 5 else {
            throw fail("swiftVersion", "\"swiftVersion\" \(swiftLanguageMode) is too old; the generated code needs Swift 5 or later")
        }
    }

    /// The major version in `"6"`, `"5.10"`, `6` or `5.9`.
    private static func languageMode(
        _ value: ConfigurationValue, fail: (String) -> AccessorGenerationError
    ) throws -> Int {
        let text: String
        switch value {
        case .string(let string): text = string
        case .number(let number): text = String(number)
        default: throw fail("\"swiftVersion\" must be a version such as \"6\" or \"5.10\", found \(value.typeName)")
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigitCharacter) }),
            let major = Int(parts[0])
        else {
            throw fail("\"swiftVersion\" must be a version such as \"6\" or \"5.10\", found \"\(text)\"")
        }
        return major
    }
}

extension Character {
    /// Whether this is one of 0-9.
    fileprivate var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}

/// Any JSON value, for checking a configuration file key by key.
private enum ConfigurationValue: Decodable {
    case object([String: ConfigurationValue])
    case array([ConfigurationValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let elements = try? container.decode([ConfigurationValue].self) {
            self = .array(elements)
        } else {
            self = .object(try container.decode([String: ConfigurationValue].self))
        }
    }

    var typeName: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a Boolean"
        case .null: return "null"
        }
    }
}
