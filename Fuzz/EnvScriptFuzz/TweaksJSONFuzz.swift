import Foundation
import JSONValues
@testable import Tweaks

/// The tweak-file reader: its own JSON scanner, then the document reader.
///
/// Invariants: every problem is placed inside the document; a document the scanner accepts is one that
/// Foundation's JSON reader accepts too, with the same values; reading is deterministic.
enum TweaksJSONFuzz {
    static func run(_ data: Data) {
        let reader = TweakDocumentReader(data, file: "fuzz.json", source: "fuzz")
        let lines = data.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        for problem in reader.problems + reader.remarks {
            guard case .invalidJSON(_, let line, let column, _, _) = problem.reason else {
                fuzzFailure("the reader reported \(problem), which is not placed in the document")
            }
            guard (1...lines).contains(line), column >= 1, column <= data.count + 1 else {
                fuzzFailure("problem placed at \(line):\(column), outside a document of \(lines) lines: \(problem)")
            }
        }
        let again = TweakDocumentReader(data, file: "fuzz.json", source: "fuzz")
        guard again.tweaks.map(\.tweak) == reader.tweaks.map(\.tweak), again.problems.count == reader.problems.count else {
            fuzzFailure("reading the same bytes twice gave different results")
        }

        guard let node = try? JSONScanner.parse(data) else { return }
        let foundation: Any
        do {
            foundation = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            fuzzFailure("the scanner accepted a document Foundation refuses (\(error))")
        }
        if let difference = difference(node.value, foundation, path: "$") {
            fuzzFailure("the scanner and Foundation read different values at \(difference)")
        }
    }

    /// Foundation drops a U+FEFF at the start of a string (the scanner, rightly, keeps it).
    private static func withoutBOM(_ text: String) -> String {
        text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
    }

    /// Where the scanner's value and Foundation's differ, or nil when they agree.
    private static func difference(_ value: JSONScanner.Value, _ other: Any, path: String) -> String? {
        switch value {
        case .null:
            return other is NSNull ? nil : path
        case .bool(let flag):
            return (other as? Bool) == flag ? nil : path
        case .string(let text):
            return (other as? String).map(withoutBOM) == withoutBOM(text) ? nil : path
        case .int(let number):
            if let integer = other as? Int, integer == number { return nil }
            return (other as? NSNumber)?.doubleValue == Double(number) ? nil : path
        case .double(let number):
            guard let read = (other as? NSNumber)?.doubleValue else { return path }
            return read == number || abs(read - number) <= abs(number) * 1e-15 ? nil : "\(path) (\(number) against \(read))"
        case .array(let nodes):
            guard let elements = other as? [Any], elements.count == nodes.count else { return path }
            for (offset, (node, element)) in zip(nodes, elements).enumerated() {
                if let found = difference(node.value, element, path: "\(path)[\(offset)]") { return found }
            }
            return nil
        case .object(let members):
            guard let read = other as? [String: Any], read.count == members.count else { return path }
            let fields = Dictionary(read.map { (withoutBOM($0.key), $0.value) }) { first, _ in first }
            for member in members {
                guard let field = fields[withoutBOM(member.key)] else { return "\(path).\(member.key)" }
                if let found = difference(member.node.value, field, path: "\(path).\(member.key)") { return found }
            }
            return nil
        }
    }
}
