import Foundation

extension TweakContext {
    /// The context a JSON text names, as OpenFeature writes one — `{"targetingKey": "user-1", "country":
    /// "DE"}` — from the command line (`--context`) or a query string. A field whose value is null is
    /// left out.
    ///
    /// - Throws: ``TweakError/Code/invalidContext`` saying what is wrong: not JSON (with the line and
    ///   column), not an object, a null inside an attribute, a `targetingKey` that is not a string.
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
        var fields: [String: TweakValue] = [:]
        for member in members {
            if case .null = member.node.value { continue }
            fields[member.key] = try TweakDocumentReader.tweakValue(of: member.node, path: [member.key]) { _, path, _ in
                TweakError.invalidContext("field '\(path.joined(separator: "."))' holds a null; leave it out")
            }
        }
        try self.init(jsonObject: fields)
    }
}
