/// The path of a `var`, split at its dots once: `"user.address.0"` is `user`, `address`, `0`. A part
/// reads an object's field by name or an array's element by index.
struct VariablePath: Sendable, Hashable {
    /// One step of the path.
    struct Step: Sendable, Hashable {
        /// The field name (the step as written).
        let key: String
        /// The step as an array index, when it is a whole number.
        let index: Int?

        init(_ key: String) {
            self.key = key
            self.index = Int(key).flatMap { $0 >= 0 ? $0 : nil }
        }
    }

    /// The steps; none for the whole data (`{"var": ""}`).
    let steps: [Step]

    /// The path written `text`: empty for the whole data.
    init(_ text: String) {
        steps = text.isEmpty ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map { Step(String($0)) }
    }

    /// The path a `var` argument names: a string, a number (an index), or null (the whole data).
    init?(argument: JSONValue) {
        switch argument {
        case .string(let text): self.init(text)
        case .double(let number): self.init(JSONValue.text(of: number))
        case .null: self.init("")
        default: return nil
        }
    }
}
