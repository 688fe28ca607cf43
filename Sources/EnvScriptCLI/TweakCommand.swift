import ArgumentParser
import EnvScript
import Foundation
import Tweaks

/// `envscript tweak ...`: feature flags through the provider stack of the start-up scripts.
struct TweakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tweak",
        abstract: "Read and change feature flags through the start-up scripts' provider stack.",
        discussion: "Without a stack from the start-up scripts, flags live in the overrides of the active container.",
        subcommands: [
            List.self, Get.self, Set.self, Delete.self, ListOverrides.self, DeleteAllOverrides.self, Explain.self,
            Validate.self, Keygen.self, Seal.self, Unseal.self,
        ])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List every flag, one per feature and variable.")
        @OptionGroup var runtime: RuntimeOptions
        @Flag(help: "Print JSON instead of a table.") var json = false

        func run() throws {
            try runtime.withHost(readsOnly: true) { host in
                TweakStackNote.noteOverridesOnly(host, runtime: runtime)
                let list = host.tweaks.list()
                for failure in list.failures { printError("warning: \(failure)") }
                if json {
                    try printJSON(list.tweaks.map(TweakPayload.init))
                } else {
                    printTable(
                        header: ["FEATURE", "VARIABLE", "VALUE", "SOURCE"],
                        rows: list.tweaks.map { [$0.feature, $0.variable, Self.shownValue(of: $0, in: list), $0.source] })
                }
            }
        }

        /// A value as the table shows it; a sealed one nothing could open is marked, never shown as its ciphertext.
        static func shownValue(of tweak: Tweak, in list: TweakList) -> String {
            guard tweak.isEncrypted else { return "\(tweak.value)" }
            switch list.openingFailure(of: tweak) {
            case let failure? where (failure as? TweakError)?.code == .decryptorMissing: return "<sealed: no decryptor or cipher>"
            case let reason?:
                // The first line: a Lua error's traceback follows on the next ones (the warning above has it all).
                let firstLine = "\(reason)".split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
                return "<sealed: decryptor failed: \(firstLine)>"
            case nil: return "<sealed>"
            }
        }
    }

    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get", abstract: "Print a flag's value (exit 1 when no provider has it).",
            discussion: """
                A flag is named by its feature and variable, or by one key: KEY alone is feature KEY, \
                variable KEY (a feature's own switch), and feature.variable splits at the first dot. \
                --context evaluates it for someone, as OpenFeature writes a context: \
                '{"targetingKey": "user-1", "country": "DE"}'. Exit 1 also when the flag's provider leaves \
                it to the caller's default (a disabled flag, one without a default variant).
                """)
        @OptionGroup var runtime: RuntimeOptions
        @Argument(help: "The feature, or the flag's key (KEY or feature.variable).") var feature: String
        @Argument(help: "The variable.") var variable: String?
        @Option(help: ArgumentHelp("The evaluation context, a JSON object.", valueName: "json")) var context: String?
        @Flag(help: "Print JSON with the source, reason, variant, metadata, title, group and description.") var json = false

        func validate() throws {
            if let context { _ = try TweakCommand.evaluationContext(context) }
        }

        func run() throws {
            let key = self.variable.map { TweakKey(feature: self.feature, variable: $0) } ?? TweakKey(flagKey: self.feature)
            let (feature, variable) = (key.feature, key.variable)
            let evaluationContext = try context.map(TweakCommand.evaluationContext) ?? .empty
            try runtime.withHost(readsOnly: true) { host in
                TweakStackNote.noteOverridesOnly(host, runtime: runtime)
                let lookup: TweakLookup
                do {
                    lookup = try host.tweaks.lookup(feature: feature, variable: variable, context: evaluationContext)
                } catch let error as TweakError {
                    guard error.code == .notFound else { throw error }
                    throw CommandFailure.failure("\(error)" + TweakStackNote.didYouMean(feature, variable, in: host))
                }
                for failure in lookup.failures { printError("warning: \(failure)") }
                if json {
                    try printJSON(TweakPayload(lookup.tweak))
                } else {
                    // A string as it is; anything else as JSON, so arrays and objects can be piped on.
                    print(lookup.value.stringValue ?? lookup.value.jsonText)
                }
            }
        }
    }

    struct Set: NegativeNumberValueCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set a flag in the highest mutable provider (the overrides by default).",
            discussion: """
                VALUE reads as true/false, an integer (negative ones too, such as -5), a decimal number \
                (-0.5), or else a string; --string keeps it a string, --json reads it as JSON (an object or \
                array for a structured flag, such as '{"columns": 3}'). A flag keeps its type: a value of \
                another type than the one the stack answers with (as the other providers define it, else \
                as it is now) is refused (exit 1) unless --force is given, and so is a flag no other provider \
                of the stack defines (a mistyped name, for which the near names are suggested).
                """)
        @OptionGroup var runtime: RuntimeOptions
        @Argument(help: "The feature.") var feature: String
        @Argument(help: "The variable.") var variable: String
        @Argument(help: "The value.") var value: String
        @Flag(help: "Store the value as a string whatever it looks like.") var string = false
        @Flag(help: "Read the value as JSON: an object, an array, a number, a string in quotes, true or false.") var json = false
        @Option(help: "The provider to write to, by name.") var provider: String?
        @Flag(help: "Store the value even when its type differs from the flag's (every reader then gets the new type), or when no other provider defines the flag.")
        var force = false

        var argumentsBeforeValue: [String] { [feature, variable] }

        func validate() throws {
            if string && json { throw ValidationError("--string and --json cannot be given together") }
            if json { _ = try JSONValue.commandLineJSON(value) }
        }

        func run() throws {
            let parsed = json ? try JSONValue.commandLineJSON(value) : JSONValue(parsing: value, forceString: string)
            try runtime.withHost(writesApplicationData: true) { host in
                try checkDefinition(in: host)
                do {
                    try host.tweaks.set(parsed, feature: feature, variable: variable, provider: provider, changingType: force)
                } catch let refusal as TweakError {
                    guard case .typeRefused(_, _, _, let given, _) = refusal.reason else { throw refusal }
                    throw CommandFailure.failure(
                        "refused: \(refusal), or add --force to store \(TweakError.withArticle(given.typeName)) anyway (every reader of the flag then gets one)")
                }
                let place = try placeDescription(in: host)
                print("\(feature).\(variable) = \(parsed.jsonText) (\(place))")
            }
        }

        /// Refuses (or with --force, warns about) a flag no other provider of the stack defines: a
        /// mistyped name would otherwise become an override nobody reads.
        private func checkDefinition(in host: EnvScriptHost) throws {
            switch try host.tweaks.definition(feature: feature, variable: variable, writingTo: provider) {
            case .defined:
                return
            case .nothingDefinesFlags:
                TweakStackNote.noteOverridesOnly(
                    host, runtime: runtime, consequence: "nothing defines flags to check \(feature).\(variable) against, it is stored as given")
            case .undefined(let near):
                let problem = "no provider defines \(feature).\(variable)" + NearNames.didYouMean(near, quote: "")
                guard force else { throw CommandFailure.failure("refused: \(problem) (--force sets it anyway)") }
                printError("warning: \(problem); set anyway (--force)")
            }
        }

        /// Where the value went: "override in container Debug", or "in provider NAME" for another one.
        private func placeDescription(in host: EnvScriptHost) throws -> String {
            let target = try TweakManager.writeTarget(named: provider, in: host.tweaks.providers)
            guard target is OverridesTweakProvider else { return "in provider \(target.name)" }
            return "override in container \(try host.containers.activeContainer.name)"
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Remove a flag from the highest mutable provider.")
        @OptionGroup var runtime: RuntimeOptions
        @Argument(help: "The feature.") var feature: String
        @Argument(help: "The variable.") var variable: String
        @Option(help: "The provider to delete from, by name.") var provider: String?

        func run() throws {
            try runtime.withHost(writesApplicationData: true) { host in
                try host.tweaks.delete(feature: feature, variable: variable, provider: provider)
            }
        }
    }

    struct ListOverrides: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list-overrides", abstract: "List the overrides of the active container.")
        @OptionGroup var runtime: RuntimeOptions
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try runtime.withHost(readsOnly: true) { host in
                let overrides = try host.tweaks.listOverrides()
                if json { return try printJSON(overrides.map(TweakPayload.init)) }
                printTable(
                    header: ["FEATURE", "VARIABLE", "VALUE", "PROVIDER"],
                    rows: overrides.map { [$0.feature, $0.variable, $0.value.stringValue ?? $0.value.jsonText, $0.source] })
            }
        }
    }

    struct DeleteAllOverrides: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete-all-overrides",
            abstract: "Remove every override of the active container, in one step (`delete FEATURE VARIABLE` removes one).")
        @OptionGroup var runtime: RuntimeOptions

        func run() throws {
            try runtime.withHost(writesApplicationData: true) { host in
                let outcome = try host.tweaks.deleteAllOverrides()
                print("removed \(outcome.removed) override\(outcome.removed == 1 ? "" : "s")")
            }
        }
    }

    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "explain",
            abstract: "Show how the stack answers a flag: each provider from the highest, what it answered or why it passed, and the winner.",
            discussion: "Asks every provider afresh. Exit status 1 when no provider answers (the explanation is printed all the same).")
        @OptionGroup var runtime: RuntimeOptions
        @Argument(help: "The feature, or the flag's key (KEY or feature.variable).") var feature: String
        @Argument(help: "The variable.") var variable: String?
        @Option(help: ArgumentHelp("The evaluation context, a JSON object.", valueName: "json")) var context: String?
        @Flag(help: "Print JSON for tools.") var json = false

        func validate() throws {
            if let context { _ = try TweakCommand.evaluationContext(context) }
        }

        func run() throws {
            var answered = false
            var suggestion = ""
            let key = self.variable.map { TweakKey(feature: self.feature, variable: $0) } ?? TweakKey(flagKey: self.feature)
            let (feature, variable) = (key.feature, key.variable)
            let evaluationContext = try context.map(TweakCommand.evaluationContext) ?? .empty
            try runtime.withHost(readsOnly: true) { host in
                TweakStackNote.noteOverridesOnly(host, runtime: runtime)
                let explanation = host.tweaks.explain(feature: feature, variable: variable, context: evaluationContext)
                answered = explanation.answer != nil
                if !answered { suggestion = TweakStackNote.didYouMean(feature, variable, in: host) }
                if json {
                    try printJSON(TweakExplanationPayload(explanation))
                } else {
                    print("\(feature).\(variable), providers from the highest:")
                    printTable(header: ["#", "PROVIDER", "OUTCOME"], rows: explanation.steps.enumerated().map { index, step in
                        ["\(index + 1)", step.provider, Self.describe(step)]
                    })
                    if let answer = explanation.answer {
                        print("answer: \(answer.isSealed ? "(sealed value)" : answer.value.jsonText) from \(answer.source)")
                    }
                }
            }
            if !answered { throw CommandFailure.failure("no provider answers \(feature).\(variable)" + suggestion) }
        }

        /// One step in words; a sealed value's plain text is never printed.
        private static func describe(_ step: TweakExplanation.Step) -> String {
            func shown(_ tweak: Tweak) -> String { tweak.isSealed ? "(sealed value)" : tweak.value.jsonText }
            switch step.outcome {
            case .missing: return "missing"
            case .failed(let error): return "failed: \(error)"
            case .answered(let tweak):
                return "answers \(shown(tweak))" + (step.openedBy.map { ", opened by \($0)" } ?? "")
            case .shadowed(let tweak): return "has \(shown(tweak)), below the answer"
            case .unopened(_, let error): return "sealed value not opened: \(error)"
            case .defaulted(let answer):
                return "leaves it to the caller's default (\(answer.errorCode?.rawValue ?? answer.reason.rawValue))" + (answer.errorMessage.map { ": \($0)" } ?? "")
            }
        }
    }

    /// The evaluation context of `--context`; a usage error (exit 2) when it is not one.
    static func evaluationContext(_ text: String) throws -> TweakContext {
        do {
            return try TweakContext(jsonText: text)
        } catch let error as TweakError {
            throw ValidationError("--context: \(error.message)")
        }
    }
}
