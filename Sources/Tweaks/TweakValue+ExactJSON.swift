extension TweakValue {
    /// The value as JSON that keeps each number's kind: a double is written with a fraction or an
    /// exponent (`2.0`, `1e+20`), an integer without (`2`). Foundation's encoder on Linux writes the
    /// double 2 as `2`, which OpenFeature's clients read as an integer — a type mismatch for a float
    /// flag. Object fields are sorted by name; one line.
    package var exactJSON: String {
        var text = ""
        writeExactJSON(into: &text)
        return text
    }

    /// Appends ``exactJSON`` to `text`.
    package func writeExactJSON(into text: inout String) {
        // One writer for both: a context's values are the same JSON, with null.
        TweakContext.Value(self).writeExactJSON(into: &text)
    }

    /// Appends `string` as a JSON string: quotes, backslashes and control characters escaped, the rest
    /// as UTF-8.
    package static func writeJSONString(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
