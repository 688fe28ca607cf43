import Foundation

/// How the package words a decoding error for people: where (``fieldPath``) and why (``reasonInWords``).
extension DecodingError {
    /// The field that did not fit, as a path (`items[2].name`); empty for the value itself.
    package var fieldPath: String {
        let codingPath: [any CodingKey]
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            codingPath = context.codingPath
        case .keyNotFound(let key, let context):
            codingPath = context.codingPath + [key]
        @unknown default:
            codingPath = []
        }
        return codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            .replacingOccurrences(of: ".[", with: "[")
    }

    /// Why the field did not fit, in words.
    package var reasonInWords: String {
        switch self {
        case .typeMismatch(let type, let context):
            return "expected \(type), found something else (\(context.debugDescription))"
        case .valueNotFound(let type, _):
            return "expected \(type), found nothing"
        case .keyNotFound:
            return "the field is missing"
        case .dataCorrupted(let context):
            return context.debugDescription
        @unknown default:
            return "\(self)"
        }
    }
}
