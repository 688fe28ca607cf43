import Foundation
import Testing
@testable import Tweaks

/// Compiling and evaluating JsonLogic rules written as JSON text, for the targeting tests.
enum Rule {
    /// The compiled rule `json`; records an issue when compiling finds a problem.
    static func compile(_ json: String, evaluators: [String: String] = [:]) throws -> LogicExpression {
        var compiler = LogicCompiler(evaluators: try evaluators.mapValues { try JSONScanner.parse(Data($0.utf8)) })
        let expression = compiler.compile(try JSONScanner.parse(Data(json.utf8)))
        #expect(compiler.problems.isEmpty, "problems in \(json): \(compiler.problems)")
        return expression
    }

    /// The problems compiling `json` finds.
    static func problems(_ json: String) throws -> [LogicRuleProblem] {
        var compiler = LogicCompiler(evaluators: [:])
        _ = compiler.compile(try JSONScanner.parse(Data(json.utf8)))
        return compiler.problems
    }

    /// `json` evaluated against the data `data` (JSON text).
    static func evaluate(_ json: String, data: String = "null") throws -> JSONValue {
        LogicEvaluator.evaluate(try compile(json), .value(LogicCompiler.data(try JSONScanner.parse(Data(data.utf8)))))
    }

    /// `json` evaluated for flag `flagKey` in `context`, as a flag's targeting is.
    static func evaluate(_ json: String, flagKey: String = "flag", context: TweakContext) throws -> JSONValue {
        LogicEvaluator.evaluate(try compile(json), .context(FlagEvaluationInput(flagKey: flagKey, context: context)))
    }

    /// A JSON value as a ``JSONValue`` (for expected values).
    static func value(_ json: String) throws -> JSONValue {
        LogicCompiler.data(try JSONScanner.parse(Data(json.utf8)))
    }
}
