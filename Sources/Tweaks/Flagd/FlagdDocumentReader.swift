import Foundation

/// Reads a flagd flag-definition file (https://flagd.dev/reference/flag-definitions/):
///
/// ```json
/// { "$schema": "…", "metadata": { "team": "shop" },
///   "$evaluators": { "isStaff": { "ends_with": [{ "var": "email" }, "@example.com"] } },
///   "flags": { "checkout.new-flow": {
///       "state": "ENABLED", "variants": { "on": true, "off": false }, "defaultVariant": "off",
///       "targeting": { "if": [{ "$ref": "isStaff" }, "on"] }, "metadata": { "owner": "ana" } } } }
/// ```
///
/// Parsed with ``JSONScanner``, so every problem is a ``TweakError/Code/invalidJSON`` with the file, line,
/// column and the flag's key. Targeting rules are compiled here, once (``LogicCompiler``).
struct FlagdDocumentReader {
    /// What the flag set's and each flag's `metadata` may hold.
    private static let metadataTypes = "a string, a number or a Boolean"

    let file: String
    let invalidRules: FlagdTweakProvider.InvalidRules
    /// The name of the provider the flags answer for (``Tweak/source`` of their answers).
    var source = ""

    /// The flags of `data`.
    ///
    /// - Throws: ``TweakError/Code/invalidJSON`` for the first problem.
    func read(_ data: Data) throws -> FlagdFlagSet {
        let root: JSONScanner.Node
        do {
            root = try JSONScanner.parse(data)
        } catch {
            throw TweakError.invalidJSON(file: file, line: error.position.line, column: error.position.column, key: nil, reason: error.message)
        }
        guard case .object(let sections) = root.value else {
            throw problem(root.position, nil, "a flagd file must be an object with \"flags\", found \(root.value.typeName)")
        }
        var flagsNode: JSONScanner.Node?
        var evaluators: [String: JSONScanner.Node] = [:]
        var setMetadata: [String: JSONValue] = [:]
        for section in sections {
            switch section.key {
            case "flags": flagsNode = section.node
            case "$evaluators":
                guard case .object(let members) = section.node.value else {
                    throw problem(section.node.position, "$evaluators", "must be an object of named rules, found \(section.node.value.typeName)")
                }
                for member in members { evaluators[member.key] = member.node }
            case "metadata":
                setMetadata = try metadata(section.node, key: "metadata")
            default:
                break  // "$schema", and what a later format may add.
            }
        }
        guard let flagsNode else { throw problem(root.position, nil, "missing \"flags\"") }
        let flagMembers = try flagList(flagsNode)
        let compiled = CompiledEvaluators()
        var set = FlagdFlagSet()
        set.metadata = setMetadata
        var keyOwners: [TweakKey: String] = [:]
        for member in flagMembers {
            let flag: FlagdFlag
            do {
                flag = try readFlag(member, evaluators: evaluators, compiled: compiled, setMetadata: setMetadata, warnings: &set.warnings)
            } catch let error as TweakError {
                // flagd loads a file whose flag is wrong (no variants, a default variant it does not have,
                // a variant no JSON type can hold) and fails that flag's evaluations.
                guard invalidRules == .failEvaluation, case .invalidJSON(_, let line, _, _, let reason) = error.reason else { throw error }
                set.warnings.append("\(file):\(line): \(reason); the flag answers PARSE_ERROR")
                flag = FlagdFlag(
                    flagKey: member.key, isEnabled: true, variants: [:], defaultVariant: nil,
                    targeting: .unusable("line \(line): \(reason)"), metadata: setMetadata, source: source)
            }
            if let owner = keyOwners[flag.key] {
                throw problem(
                    member.keyPosition, member.key,
                    "flag '\(member.key)' names the same tweak as flag '\(owner)' (feature '\(flag.key.feature)', variable '\(flag.key.variable)'); rename one")
            }
            keyOwners[flag.key] = member.key
            set.flags[flag.key] = flag
        }
        return set
    }

    /// The flags of `node`: flagd's object of flags by key, or its array form, each flag an object with
    /// its `key` (valid under flagd's schema too).
    private func flagList(_ node: JSONScanner.Node) throws -> [JSONScanner.Member] {
        switch node.value {
        case .object(let members):
            return members
        case .array(let elements):
            return try elements.map { element in
                guard case .object(let fields) = element.value else {
                    throw problem(element.position, "flags", "each flag of the \"flags\" array must be an object, found \(element.value.typeName)")
                }
                guard let keyField = fields.first(where: { $0.key == "key" }), case .string(let key) = keyField.node.value, !key.isEmpty else {
                    throw problem(element.position, "flags", "each flag of the \"flags\" array needs its \"key\", a non-empty string")
                }
                return JSONScanner.Member(key: key, keyPosition: keyField.node.position, node: element)
            }
        default:
            throw problem(node.position, "flags", "must be an object of flags by key (or an array of flags with their \"key\"), found \(node.value.typeName)")
        }
    }

    private func readFlag(
        _ member: JSONScanner.Member, evaluators: [String: JSONScanner.Node], compiled: CompiledEvaluators,
        setMetadata: [String: JSONValue], warnings: inout [String]
    ) throws -> FlagdFlag {
        let flagKey = member.key
        guard case .object(let fields) = member.node.value else {
            throw problem(member.node.position, flagKey, "flag '\(flagKey)' must be an object, found \(member.node.value.typeName)")
        }
        var state: Bool?
        var variants: [String: JSONValue]?
        var defaultVariant: (name: String?, position: JSONScanner.Position)?
        var targeting = FlagdFlag.Targeting.none
        var flagMetadata: [String: JSONValue] = [:]
        for field in fields {
            switch field.key {
            case "state":
                switch field.node.value {
                case .string("ENABLED"): state = true
                case .string("DISABLED"): state = false
                default:
                    throw problem(field.node.position, flagKey, "flag '\(flagKey)': \"state\" must be \"ENABLED\" or \"DISABLED\", found \(describe(field.node))")
                }
            case "variants":
                guard case .object(let members) = field.node.value, !members.isEmpty else {
                    throw problem(field.node.position, flagKey, "flag '\(flagKey)': \"variants\" must be an object of at least one variant, found \(describe(field.node))")
                }
                var values: [String: JSONValue] = [:]
                for variant in members {
                    values[variant.key] = try TweakDocumentReader.tweakValue(of: variant.node, path: [flagKey, "variants", variant.key]) { position, _, reason in
                        problem(position, flagKey, "flag '\(flagKey)', variant '\(variant.key)': \(reason)")
                    }
                }
                variants = values
            case "defaultVariant":
                switch field.node.value {
                case .null: defaultVariant = (nil, field.node.position)
                case .string(let name): defaultVariant = (name.isEmpty ? nil : name, field.node.position)
                case .bool(let flag): defaultVariant = (flag ? "true" : "false", field.node.position)
                default:
                    throw problem(field.node.position, flagKey, "flag '\(flagKey)': \"defaultVariant\" must name a variant or be null, found \(describe(field.node))")
                }
            case "targeting":
                targeting = try compileTargeting(field.node, flagKey: flagKey, evaluators: evaluators, compiled: compiled, warnings: &warnings)
            case "metadata":
                flagMetadata = try metadata(field.node, key: flagKey)
            default:
                break  // "source", "selector" (added by flagd's sync), and what a later format may add.
            }
        }
        // flagd loads a flag without a state, and evaluates it.
        let isEnabled = state ?? true
        guard let variants else { throw problem(member.node.position, flagKey, "flag '\(flagKey)' has no \"variants\"") }
        if let defaultVariant, let name = defaultVariant.name, variants[name] == nil {
            throw problem(
                defaultVariant.position, flagKey,
                "flag '\(flagKey)': \"defaultVariant\" is '\(name)', which is not one of its variants (\(variants.keys.sorted().joined(separator: ", ")))")
        }
        return FlagdFlag(
            flagKey: flagKey, isEnabled: isEnabled, variants: variants, defaultVariant: defaultVariant?.name, targeting: targeting,
            metadata: setMetadata.merging(flagMetadata) { _, own in own }, source: source)
    }

    private func compileTargeting(
        _ node: JSONScanner.Node, flagKey: String, evaluators: [String: JSONScanner.Node], compiled: CompiledEvaluators,
        warnings: inout [String]
    ) throws -> FlagdFlag.Targeting {
        guard case .object(let members) = node.value else {
            throw problem(node.position, flagKey, "flag '\(flagKey)': \"targeting\" must be an object (a JsonLogic rule), found \(node.value.typeName)")
        }
        if members.isEmpty { return .none }
        var compiler = LogicCompiler(evaluators: evaluators, compiled: compiled)
        let rule = compiler.compile(node)
        if invalidRules == .refuseFile,
            let refused = compiler.problems.first(where: { $0.kind != .missingEvaluator })
        {
            throw problem(refused.position, flagKey, "flag '\(flagKey)': \(refused.message)")
        }
        if let unusable = compiler.problems.first(where: \.makesRuleUnusable) {
            warnings.append("\(file):\(unusable.position.line): flag '\(flagKey)': \(unusable.message); the flag answers PARSE_ERROR")
            return .unusable("line \(unusable.position.line): its targeting: \(unusable.message)")
        }
        return .rule(rule)
    }

    private func metadata(_ node: JSONScanner.Node, key: String) throws -> [String: JSONValue] {
        guard case .object(let members) = node.value else {
            throw problem(node.position, key, "\"metadata\" must be an object, found \(node.value.typeName)")
        }
        var fields: [String: JSONValue] = [:]
        for member in members {
            switch member.node.value {
            case .string(let text): fields[member.key] = .string(text)
            case .int(let number): fields[member.key] = .int(number)
            case .double(let number): fields[member.key] = .double(number)
            case .bool(let flag): fields[member.key] = .bool(flag)
            default:
                throw problem(member.node.position, key, "metadata '\(member.key)' must be \(Self.metadataTypes), found \(member.node.value.typeName)")
            }
        }
        return fields
    }

    private func describe(_ node: JSONScanner.Node) -> String {
        if case .string(let text) = node.value { return "\"\(text)\"" }
        return node.value.typeName
    }

    private func problem(_ position: JSONScanner.Position, _ key: String?, _ reason: String) -> TweakError {
        .invalidJSON(file: file, line: position.line, column: position.column, key: key, reason: reason)
    }
}
