import Foundation

/// What flagd's published schema refuses and a flagd file may still hold, since flagd (and
/// ``FlagdTweakProvider``) loads such a file: checked by `envscript tweak validate`, strictly, for CI.
///
/// - everything loading refuses, and a rule that cannot be evaluated (``FlagdTweakProvider/InvalidRules/refuseFile``);
/// - a flag without `state`;
/// - variants of mixed types (a Boolean beside a string), and an array as a variant's value (no
///   OpenFeature type, so no OFREP one, has it);
/// - a `fractional` bucket whose weight is not a whole number of at least 0.
enum FlagdSchemaCheck {
    /// Whether `data` is a flagd file rather than a tweak file: an object with `flags`.
    static func isFlagdFile(_ root: JSONScanner.Node) -> Bool {
        guard case .object(let members) = root.value else { return false }
        return members.contains { $0.key == "flags" }
    }

    /// Every problem of the flagd file `data`, named `file`, in document order; how many flags it has.
    static func problems(of data: Data, file: String) -> (problems: [TweakError], flagCount: Int) {
        do {
            let set = try FlagdDocumentReader(file: file, invalidRules: .refuseFile).read(data)
            let root = try JSONScanner.parse(data)
            var problems: [TweakError] = []
            for (key, flag) in flagNodes(root) { problems += check(flag, key: key, file: file) }
            return (problems, set.flags.count)
        } catch let error as TweakError {
            return ([error], 0)
        } catch {
            // The reader has parsed the same bytes: this second parse cannot fail differently.
            return ([TweakError.readFailed(file: file, reason: "\(error)")], 0)
        }
    }

    /// The flags of a flagd file that loaded: by key, from the object or the array form.
    private static func flagNodes(_ root: JSONScanner.Node) -> [(String, JSONScanner.Node)] {
        guard case .object(let sections) = root.value, let flags = sections.first(where: { $0.key == "flags" })?.node else { return [] }
        switch flags.value {
        case .object(let members):
            return members.map { ($0.key, $0.node) }
        case .array(let elements):
            return elements.compactMap { element in
                guard case .object(let fields) = element.value,
                      case .string(let key)? = fields.first(where: { $0.key == "key" })?.node.value else { return nil }
                return (key, element)
            }
        default:
            return []
        }
    }

    private static func check(_ flag: JSONScanner.Node, key: String, file: String) -> [TweakError] {
        guard case .object(let fields) = flag.value else { return [] }
        var problems: [TweakError] = []
        func problem(_ position: JSONScanner.Position, _ reason: String) {
            problems.append(.invalidJSON(file: file, line: position.line, column: position.column, key: key, reason: "flag '\(key)': \(reason)"))
        }
        if !fields.contains(where: { $0.key == "state" }) {
            problem(flag.position, "has no \"state\"; flagd's schema requires \"ENABLED\" or \"DISABLED\" (it loads the flag as enabled)")
        }
        if case .object(let variants)? = fields.first(where: { $0.key == "variants" })?.node.value {
            var firstKind: (kind: String, name: String)?
            for variant in variants {
                let kind: String
                switch variant.node.value {
                case .bool: kind = "Boolean"
                case .string: kind = "string"
                case .int, .double: kind = "number"
                case .object: kind = "object"
                case .array:
                    problem(variant.node.position, "variant '\(variant.key)' is an array, which no OpenFeature type has; wrap it in an object")
                    continue
                case .null: continue
                }
                if let firstKind, firstKind.kind != kind {
                    problem(variant.node.position, "variant '\(variant.key)' is a \(kind) but '\(firstKind.name)' is a \(firstKind.kind); flagd's schema wants every variant of one type")
                } else if firstKind == nil {
                    firstKind = (kind, variant.key)
                }
            }
        }
        if let targeting = fields.first(where: { $0.key == "targeting" })?.node {
            visitFractional(targeting) { bucket in
                guard case .array(let parts) = bucket.value, parts.count >= 2 else { return }
                let weight = parts[parts.count - 1]
                if case .int(let number) = weight.value, number >= 0 { return }
                problem(weight.position, "a fractional weight must be a whole number of at least 0, found \(weight.value.typeName == "integer" ? "a negative one" : TweakError.withArticle(weight.value.typeName))")
            }
        }
        return problems
    }

    /// Calls `bucket` with each bucket (`[variant, weight]`) of every `fractional` in `node`.
    private static func visitFractional(_ node: JSONScanner.Node, _ bucket: (JSONScanner.Node) -> Void) {
        switch node.value {
        case .object(let members):
            for member in members {
                if member.key == "fractional", case .array(let arguments) = member.node.value {
                    for argument in arguments {
                        if case .array(let parts) = argument.value, parts.count >= 2, case .string = parts[0].value { bucket(argument) }
                    }
                }
                visitFractional(member.node, bucket)
            }
        case .array(let elements):
            for element in elements { visitFractional(element, bucket) }
        default:
            break
        }
    }
}
