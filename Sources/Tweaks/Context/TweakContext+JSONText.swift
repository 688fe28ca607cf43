import Foundation

extension TweakContext {
    /// The context a JSON text names, as OpenFeature writes one — `{"targetingKey": "user-1", "country":
    /// "DE"}` — from the command line (`--context`) or a query string. A field whose value is null is
    /// left out; nulls inside an attribute's lists and structures are kept.
    ///
    /// - Throws: ``TweakError/Code/invalidContext`` saying what is wrong: not JSON (with the line and
    ///   column), not an object, a `targetingKey` that is not a string.
    public init(jsonText text: String) throws {
        let root: JSONScanner.Node
        do {
            root = try JSONScanner.parse(Data(text.utf8))
        } catch {
            throw TweakError.invalidContext("it is not JSON (\(error))")
        }
        guard case .object(let members) = root.value else {
            throw TweakError.invalidContext("it is a JSON \(root.value.typeName), not an object")
        }
        var fields: [String: JSONValue] = [:]
        for member in members {
            if case .null = member.node.value { continue }
            fields[member.key] = JSONValue(member.node)
        }
        try self.init(jsonObject: fields)
    }
}
