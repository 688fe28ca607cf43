import Tweaks

/// What the generated files will hold, checked: one property per tweak and one constant per feature, each
/// with a unique, valid Swift name.
struct AccessorPlan {
    /// One generated property.
    struct Property {
        /// The name, unescaped.
        var name: String
        var feature: String
        var variable: String
        /// The name of the feature's constant, unescaped.
        var featureConstant: String
        /// The Swift type of the value.
        var typeName: String
        /// The default as a Swift literal; nil for an encrypted tweak (its file value is ciphertext) and for
        /// a decoded one.
        var defaultLiteral: String?
        /// Whether the configuration maps the flag to a type of the module's, decoded on each read.
        var isDecoded = false
        var title: String?
        var description: String?
        var group: String?
    }

    /// One feature constant.
    struct Feature {
        /// The constant's name, unescaped.
        var name: String
        var feature: String
    }

    /// The properties, ordered by group (ungrouped first), then feature, then variable.
    var properties: [Property]
    /// The feature constants, ordered by feature.
    var features: [Feature]

    /// Checks `tweaks` (read from `file`) against `configuration` and names everything.
    ///
    /// Checks happen in file order, so a duplicate is reported at its second occurrence.
    static func make(
        tweaks: [LocatedTweak], file: String, configuration: AccessorConfiguration
    ) throws -> AccessorPlan {
        func fail(
            _ kind: AccessorGenerationError.Kind, _ location: LocatedTweak.Location, _ key: String, _ message: String
        ) -> AccessorGenerationError {
            AccessorGenerationError(
                kind: kind, file: file, line: location.line, column: location.column, key: key, message: message)
        }
        let reserved = SwiftIdentifier.reservedMemberNames.union(AccessorGenerator.constantNamespaces)
            .union([configuration.managerPropertyName])

        var properties: [Property] = []
        var owners: [String: LocatedTweak] = [:]
        var features: [String: Feature] = [:]
        var featureOwners: [String: LocatedTweak] = [:]
        for located in tweaks {
            let tweak = located.tweak
            let key = tweak.key.description
            for field in configuration.requiredFields.sorted() where !located.fieldLocations.keys.contains(field.rawValue) {
                throw fail(
                    .missingField, located.location, key,
                    "'\(key)' has no \"\(field.rawValue)\", which the configuration requires (\"requiredFields\")")
            }

            let literal = SwiftLiteral.literal(tweak.value)
            if literal == nil {
                throw fail(
                    .unsupportedValue, located.fieldLocations["Value"] ?? located.location, key,
                    "'\(key)' has a \"Value\" too large for a Swift Double; use a Boolean, a finite number or a string")
            }

            let name: String
            if let given = tweak.generatedPropertyName {
                let at = located.fieldLocations["GeneratedPropertyName"] ?? located.location
                if let problem = SwiftIdentifier.problem(with: given) {
                    throw fail(
                        .invalidName, at, key,
                        "'\(key)' has \"GeneratedPropertyName\" '\(given)', which is not a Swift name: \(problem)")
                }
                if reserved.contains(given) {
                    throw fail(
                        .invalidName, at, key,
                        "'\(key)' has \"GeneratedPropertyName\" '\(given)', which the accessor reserves; choose another")
                }
                name = given
            } else {
                guard let derived = SwiftIdentifier.camelCased(tweak.variable) else {
                    throw fail(
                        .invalidName, located.location, key,
                        "cannot make a Swift name from variable '\(tweak.variable)' of '\(key)' (only ASCII letters and digits are used); add a \"GeneratedPropertyName\"")
                }
                if reserved.contains(derived) {
                    throw fail(
                        .invalidName, located.location, key,
                        "'\(key)' would be named '\(derived)', which the accessor reserves; add a \"GeneratedPropertyName\"")
                }
                name = derived
            }
            if let owner = owners[name] {
                throw fail(
                    .duplicateName, located.fieldLocations["GeneratedPropertyName"] ?? located.location, key,
                    "duplicate property name '\(name)': '\(key)' and '\(owner.tweak.key)' (line \(owner.location.line)) both use it; give one a different \"GeneratedPropertyName\"")
            }
            owners[name] = located

            if features[tweak.feature] == nil {
                guard let constant = SwiftIdentifier.camelCased(tweak.feature) else {
                    throw fail(
                        .invalidName, located.location, tweak.feature,
                        "cannot make a Swift name from feature '\(tweak.feature)' (only ASCII letters and digits are used); rename the feature")
                }
                if SwiftIdentifier.reservedMemberNames.contains(constant) {
                    throw fail(
                        .invalidName, located.location, tweak.feature,
                        "feature '\(tweak.feature)' would be named '\(constant)', which Swift reserves; rename the feature")
                }
                if let owner = featureOwners[constant] {
                    throw fail(
                        .duplicateName, located.location, tweak.feature,
                        "duplicate feature constant '\(constant)': features '\(tweak.feature)' and '\(owner.tweak.feature)' (line \(owner.location.line)) both become it; rename one")
                }
                featureOwners[constant] = located
                features[tweak.feature] = Feature(name: constant, feature: tweak.feature)
            }

            let mappedType = configuration.types[key]
            properties.append(
                Property(
                    name: name, feature: tweak.feature, variable: tweak.variable,
                    featureConstant: features[tweak.feature]!.name,
                    typeName: mappedType ?? SwiftLiteral.typeName(of: tweak.value),
                    defaultLiteral: tweak.isEncrypted || mappedType != nil ? nil : literal,
                    isDecoded: mappedType != nil,
                    title: tweak.title, description: tweak.description, group: tweak.group))
        }
        let defined = Set(tweaks.map { $0.tweak.key.description })
        if let unknown = configuration.types.keys.sorted().first(where: { !defined.contains($0) }) {
            throw AccessorGenerationError(
                kind: .invalidConfiguration, file: file, key: "types",
                message: "the configuration's \"types\" maps '\(unknown)', which \(file) does not define; write it as \"feature.variable\" of a flag of the file")
        }
        properties.sort { ($0.group ?? "", $0.feature, $0.variable) < ($1.group ?? "", $1.feature, $1.variable) }
        return AccessorPlan(properties: properties, features: features.values.sorted { $0.feature < $1.feature })
    }
}
