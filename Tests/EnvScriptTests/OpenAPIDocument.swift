import Foundation
import JSONValues

/// `openapi/envscript-control.json`, read with Foundation: its operations, their examples and declared
/// statuses, and a checker of JSON values against its schemas (the subset of JSON Schema the document
/// uses: `$ref`, `type`, `const`, `enum`, `properties`, `required`, `additionalProperties: false`,
/// `minProperties`, `minimum`, `items`, `oneOf`, `format: uuid`).
struct OpenAPIDocument {
    /// One method on one path.
    struct Operation: CustomStringConvertible {
        let method: String
        let path: String
        let json: JSONValue

        /// `GET /v1/containers/{id}`, as Hummingbird lists routes.
        var description: String { "\(method) \(path)" }
        var declaredStatuses: Set<Int> { Set((json["responses"]?.object ?? [:]).keys.compactMap(Int.init)) }

        /// The path with each path parameter replaced by its example, percent-encoded.
        func examplePath() throws -> String {
            var result = path
            for parameter in json["parameters"]?.array ?? [] where parameter["in"]?.string == "path" {
                guard let name = parameter["name"]?.string, let example = parameter["example"]?.string else {
                    throw DocumentError("\(self): a path parameter has no example")
                }
                let encoded = example.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))!
                result = result.replacingOccurrences(of: "{\(name)}", with: encoded)
            }
            let query = (json["parameters"]?.array ?? []).compactMap { parameter -> String? in
                guard parameter["in"]?.string == "query", let name = parameter["name"]?.string,
                      let example = parameter["example"]?.string else { return nil }
                return name + "=" + example.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+")))!
            }
            return query.isEmpty ? result : result + "?" + query.joined(separator: "&")
        }

        /// Whether the request body is a zip archive rather than JSON.
        var takesArchive: Bool { json["requestBody"]?["content"]?["application/zip"] != nil }

        /// Whether the answer with `status` is a zip archive rather than JSON.
        func answersArchive(status: Int) -> Bool { json["responses"]?[String(status)]?["content"]?["application/zip"] != nil }

        /// The example request body, as JSON text; nil when the operation takes no body.
        func exampleBody() throws -> String? {
            guard let body = json["requestBody"], !takesArchive else { return nil }
            guard let example = body["content"]?["application/json"]?["example"] else {
                throw DocumentError("\(self): the request body has no example")
            }
            return String(decoding: try JSONEncoder().encode(EncodableJSON(example)), as: UTF8.self)
        }

        /// The schema of the JSON answer with `status`, or nil when that answer is not JSON.
        func responseSchema(status: Int, in document: OpenAPIDocument) -> JSONValue? {
            guard var response = json["responses"]?[String(status)] else { return nil }
            if let reference = response["$ref"]?.string { response = document.resolve(reference) ?? .null }
            return response["content"]?["application/json"]?["schema"]
        }
    }

    let json: JSONValue

    /// The document at the top of the repository.
    static func load() throws -> OpenAPIDocument {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("openapi/envscript-control.json"))
        return OpenAPIDocument(json: try JSONValue.parse(data))
    }

    /// Every operation, sorted by path then method.
    var operations: [Operation] {
        let methods = ["get", "put", "post", "patch", "delete"]
        return (json["paths"]?.object ?? [:]).sorted { $0.key < $1.key }.flatMap { path, item in
            methods.compactMap { method in item[method].map { Operation(method: method.uppercased(), path: path, json: $0) } }
        }
    }

    /// The value a local `$ref` points at.
    func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#/") else { return nil }
        var node: JSONValue? = json
        for part in reference.dropFirst(2).split(separator: "/") { node = node?[String(part)] }
        return node
    }

    /// The problems of `value` against `schema`, each naming where it is; empty when it conforms.
    func problems(of value: JSONValue, against schema: JSONValue, at place: String = "$") -> [String] {
        if let reference = schema["$ref"]?.string {
            guard let target = resolve(reference) else { return ["\(place): unresolved \(reference)"] }
            return problems(of: value, against: target, at: place)
        }
        var found: [String] = []
        if let alternatives = schema["oneOf"]?.array {
            let matching = alternatives.filter { problems(of: value, against: $0, at: place).isEmpty }
            if matching.count != 1 { found.append("\(place): matches \(matching.count) of the oneOf alternatives: \(value)") }
        }
        if let constant = schema["const"], constant != value { found.append("\(place): \(value) is not \(constant)") }
        if let allowed = schema["enum"]?.array, !allowed.contains(value) { found.append("\(place): \(value) is not one of \(allowed)") }
        if let type = schema["type"] {
            let types = type.array?.compactMap(\.string) ?? [type.string ?? ""]
            if !types.contains(where: { Self.value(value, is: $0) }) { found.append("\(place): \(value) is not \(types.joined(separator: " or "))") }
        }
        if schema["format"]?.string == "uuid", let text = value.string, UUID(uuidString: text) == nil {
            found.append("\(place): \(text.debugDescription) is not a UUID")
        }
        if let minimum = schema["minimum"]?.int, let number = value.int, number < minimum { found.append("\(place): \(number) < \(minimum)") }
        if let fields = value.object {
            let properties = schema["properties"]?.object ?? [:]
            for name in schema["required"]?.array?.compactMap(\.string) ?? [] where fields[name] == nil {
                found.append("\(place): the required field '\(name)' is missing")
            }
            if let least = schema["minProperties"]?.int, fields.count < least { found.append("\(place): fewer than \(least) fields") }
            for (name, field) in fields {
                if let property = properties[name] {
                    found += problems(of: field, against: property, at: "\(place).\(name)")
                } else if schema["additionalProperties"] == .bool(false) {
                    found.append("\(place): the field '\(name)' is not in the schema")
                }
            }
        }
        if let items = schema["items"], let values = value.array {
            for (index, item) in values.enumerated() { found += problems(of: item, against: items, at: "\(place)[\(index)]") }
        }
        return found
    }

    private static func value(_ value: JSONValue, is type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("integer", .int), ("number", .int), ("number", .double),
             ("string", .string), ("array", .array), ("object", .object): return true
        default: return false
        }
    }
}

/// A problem of the document itself.
struct DocumentError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Writes a ``JSONValue`` back as JSON.
private struct EncodableJSON: Encodable {
    let value: JSONValue
    init(_ value: JSONValue) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch value {
        case .null: try single.encodeNil()
        case .bool(let flag): try single.encode(flag)
        case .int(let number): try single.encode(number)
        case .double(let number): try single.encode(number)
        case .string(let text): try single.encode(text)
        case .array(let values): try single.encode(values.map(EncodableJSON.init))
        case .object(let fields): try single.encode(fields.mapValues(EncodableJSON.init))
        }
    }
}
