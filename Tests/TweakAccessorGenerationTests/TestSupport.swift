import Foundation
import Testing
import TestSupport
import TweakAccessorGeneration

/// Generation from strings, as if read from `Tweaks.json`.
enum Generate {
    static func accessors(_ json: String, _ configuration: AccessorConfiguration) throws -> GeneratedAccessors {
        try AccessorGenerator(configuration: configuration).generate(tweaksJSON: Data(json.utf8), file: "Tweaks.json")
    }

    static func accessors(_ json: String, name: String = "Accessor") throws -> GeneratedAccessors {
        try accessors(json, AccessorConfiguration(accessorName: name))
    }

    /// The error generating from `json` throws; records an issue when there is none.
    static func error(
        _ json: String, _ configuration: AccessorConfiguration = AccessorConfiguration(accessorName: "Accessor"),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> AccessorGenerationError? {
        do {
            _ = try accessors(json, configuration)
            Issue.record("expected an error for: \(json)", sourceLocation: sourceLocation)
        } catch let error as AccessorGenerationError {
            return error
        } catch {
            Issue.record("expected an AccessorGenerationError, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    /// The error parsing the configuration `json` throws; records an issue when there is none.
    static func configurationError(
        _ json: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> AccessorGenerationError? {
        do {
            _ = try AccessorConfiguration.parse(Data(json.utf8), file: "config.json")
            Issue.record("expected an error for: \(json)", sourceLocation: sourceLocation)
        } catch let error as AccessorGenerationError {
            return error
        } catch {
            Issue.record("expected an AccessorGenerationError, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }
}
