import Foundation
import Tweaks

/// Why accessors could not be generated, naming the file, the line and column where known, and the
/// tweak's key (`feature.variable`) or the configuration key involved.
///
/// ``description`` reads like a compiler diagnostic (`Tweaks.json:12:5: error: ...`), so build logs and
/// IDEs point at the offending line.
package struct AccessorGenerationError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The kind of problem.
    package enum Kind: String, Sendable, Hashable {
        /// A file could not be read.
        case unreadableFile
        /// The tweaks file is not valid JSON or not in JustTweak's shape.
        case invalidTweaks
        /// A tweak lacks `Value`, or a field the configuration requires (`requiredFields`).
        case missingField
        /// A value no Swift literal can hold: an array, an object, null, or a number too large.
        case unsupportedValue
        /// A name is not a valid Swift identifier, or no identifier can be derived from it.
        case invalidName
        /// Two tweaks would get the same property name, or two features the same constant name.
        case duplicateName
        /// The configuration file is malformed or has a bad value.
        case invalidConfiguration
        /// A generated file could not be written.
        case writeFailed
    }

    /// The kind of problem.
    package var kind: Kind
    /// The file at fault (as given, usually a path).
    package var file: String
    /// The line, from 1, when known.
    package var line: Int?
    /// The column in bytes, from 1, when known.
    package var column: Int?
    /// The tweak's `feature.variable`, or the configuration key, when the problem is about one.
    package var key: String?
    /// What is wrong and, where possible, how to fix it.
    package var message: String

    /// Creates an error.
    package init(kind: Kind, file: String, line: Int? = nil, column: Int? = nil, key: String? = nil, message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.message = message
    }

    /// The error of a file that could not be read (`what`: "the tweaks file"), saying why in words
    /// ("no such file or folder").
    init(unreadable url: URL, what: String, _ error: TweakError) {
        let reason: String
        if case .readFailed(_, let why) = error.reason { reason = why } else { reason = error.description }
        self.init(kind: .unreadableFile, file: url.path, message: "cannot read \(what): \(reason)")
    }

    /// `file:line:column: error: message`, leaving out what is unknown.
    package var description: String {
        var place = file
        if let line {
            place += ":\(line)"
            if let column { place += ":\(column)" }
        }
        return "\(place): error: \(message)"
    }

    /// Same as ``description``, for `localizedDescription`.
    package var errorDescription: String? { description }
}
