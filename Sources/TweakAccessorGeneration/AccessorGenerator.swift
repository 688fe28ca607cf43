package import Foundation
import Tweaks

/// Generates typed accessors for a tweaks file in JustTweak's format (see `TweakJSON`).
///
/// For each tweak the accessor `<accessorName>.swift` has one property, named by its
/// `"GeneratedPropertyName"` or else by its variable camel-cased (`max_items` → `maxItems`), typed by its
/// `"Value"` (`Bool`, `Int`, `Double` or `String`) and reading the tweak through a `TweakManager` with that
/// value as the default, so reading never fails. Encrypted tweaks get optional properties, since the file
/// holds their ciphertext. `<accessorName>+Constants.swift` holds the feature and variable names.
///
/// ```swift
/// let configuration = try AccessorConfiguration.load(from: configURL)
/// let accessors = try AccessorGenerator(configuration: configuration).generate(tweaksFile: tweaksURL)
/// try accessors.write(to: outputFolder)  // rewrites only files whose contents changed
/// ```
///
/// Every problem is an ``AccessorGenerationError`` naming the file, line and key: malformed JSON, a
/// missing `"Value"` (or a field listed in `requiredFields`), a value that is an array, an object, null or
/// an out-of-range number, a name that is not a Swift identifier, two tweaks with the same property name.
package struct AccessorGenerator: Sendable {
    /// The names of the nested constant enums, which no property may take.
    static let constantNamespaces: Set<String> = ["Features", "Variables"]

    /// The configuration used.
    package var configuration: AccessorConfiguration

    /// Creates a generator.
    package init(configuration: AccessorConfiguration) {
        self.configuration = configuration
    }

    /// Reads the tweaks file at `url` and generates the accessors.
    ///
    /// - Throws: ``AccessorGenerationError``.
    package func generate(tweaksFile url: URL) throws -> GeneratedAccessors {
        let data: Data
        do {
            data = try TweakJSON.contents(of: url)
        } catch {
            throw AccessorGenerationError(unreadable: url, what: "the tweaks file", error)
        }
        return try generate(tweaksJSON: data, file: url.path)
    }

    /// Generates the accessors for a tweaks document; `file` names it in errors, and its last path
    /// component names it in the generated comments.
    ///
    /// - Throws: ``AccessorGenerationError``.
    package func generate(tweaksJSON data: Data, file: String) throws -> GeneratedAccessors {
        try configuration.validate(file: "configuration")
        let tweaks: [LocatedTweak]
        do {
            tweaks = try TweakJSON.parseLocated(data, file: file)
        } catch let error as TweakError {
            throw Self.translate(error, file: file)
        }
        let plan = try AccessorPlan.make(tweaks: tweaks, file: file, configuration: configuration)
        let renderer = AccessorRenderer(
            plan: plan, configuration: configuration, sourceName: URL(fileURLWithPath: file).lastPathComponent)
        return GeneratedAccessors(
            accessor: GeneratedFile(name: configuration.accessorFileName, contents: renderer.accessorFile()),
            constants: GeneratedFile(name: configuration.constantsFileName, contents: renderer.constantsFile()))
    }

    /// Loads the configuration, generates from the tweaks file and writes into `outputDirectory`: what
    /// `envscript generate accessors` and the build plugin's tool do.
    ///
    /// - Throws: ``AccessorGenerationError``.
    @discardableResult
    package static func run(
        tweaksFile: URL, configurationFile: URL, outputDirectory: URL
    ) throws -> [GeneratedFile.WriteResult] {
        let configuration = try AccessorConfiguration.load(from: configurationFile)
        return try AccessorGenerator(configuration: configuration).generate(tweaksFile: tweaksFile)
            .write(to: outputDirectory)
    }

    /// A parse error of `TweakJSON` as an ``AccessorGenerationError`` of the matching kind.
    private static func translate(_ error: TweakError, file: String) -> AccessorGenerationError {
        guard case .invalidJSON(_, let line, let column, let key, let reason) = error.reason else {
            return AccessorGenerationError(kind: .invalidTweaks, file: file, message: error.description)
        }
        let kind: AccessorGenerationError.Kind
        if reason.hasPrefix("missing ") {
            kind = .missingField
        } else if reason.hasPrefix("unsupported value") || reason.hasPrefix("null is not a tweak value") {
            kind = .unsupportedValue
        } else {
            kind = .invalidTweaks
        }
        let message = key.map { "'\($0)': \(reason)" } ?? reason
        return AccessorGenerationError(kind: kind, file: file, line: line, column: column, key: key, message: message)
    }
}
