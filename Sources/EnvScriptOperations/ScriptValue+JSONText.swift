package import Foundation
package import Tweaks

extension ScriptValue {
    /// The value a JSON text holds, read by the strict scanner tweak files are read with (one pass whose
    /// cost grows with the text's length only: no trailing comma, no key given twice, no lone surrogate,
    /// at most `JSONScanner/maximumDepth` levels).
    ///
    /// Foundation's readers are not used for request bodies: they accept a trailing comma, and reading
    /// their result as `ScriptValue`s through `Decodable` tries each kind in turn at every level — a
    /// 1 KiB body nested 500 levels deep took seconds of CPU while the requests behind it waited.
    ///
    /// Numbers read as ``ScriptValue`` always has: an integral number within `Int`'s range (`3`, `3.0`,
    /// `3e0`) is an integer, any other a double; `{"$float": "3"}` is the double 3.
    ///
    /// - Throws: the scanner's error, naming what is wrong and its line and column.
    package init(jsonText data: Data) throws(JSONScanner.SyntaxError) {
        self.init(json: try JSONScanner.parse(data).value)
    }

    private init(json value: JSONScanner.Value) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .int(number)
        case .double(let number):
            if number == number.rounded(), number >= -0x1p63, number < 0x1p63 {
                self = .int(Int(number))
            } else {
                self = .double(number)
            }
        case .string(let text): self = .string(text)
        case .array(let items): self = .array(items.map { ScriptValue(json: $0.value) })
        case .object(let members):
            if members.count == 1, members[0].key == Self.floatMarker,
               case .string(let text) = members[0].node.value, let number = Double(text) {
                self = .double(number)
            } else {
                self = .object(Dictionary(uniqueKeysWithValues: members.map { ($0.key, ScriptValue(json: $0.node.value)) }))
            }
        }
    }
}
