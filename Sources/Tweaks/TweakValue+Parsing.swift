/// Reading tweak values typed on a command line or in a form.
extension TweakValue {
    /// The value `text` denotes: `true`/`false` as a Boolean, an integer as `.int`, a decimal number as
    /// `.double`, anything else as a string. Pass `forceString: true` to keep, say, "42" a string.
    public init(parsing text: String, forceString: Bool = false) {
        if forceString {
            self = .string(text)
        } else if text == "true" || text == "false" {
            self = .bool(text == "true")
        } else if let int = Int(text) {
            self = .int(int)
        } else if let double = Double(text), double.isFinite, text.contains(where: { $0.isNumber }),
                  text.allSatisfy({ $0.isNumber || "+-.eE".contains($0) })
        {
            self = .double(double)
        } else {
            self = .string(text)
        }
    }
}
