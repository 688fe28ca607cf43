import ArgumentParser
import EnvScript
import Scenarios

/// The formats of `envscript run --format` (and of `-o`/`--output`, as busted names its output handlers).
enum ReportFormat: String, NamedArgumentValue {
    case pretty, tap, junit, json

    /// The reporter of this format, writing lines with `write`.
    func reporter(write: @escaping (String) -> Void) -> any ScenarioReporter {
        switch self {
        case .pretty: return PrettyReporter(write: write)
        case .tap: return TAPReporter(write: write)
        case .junit: return JUnitReporter(write: write)
        case .json: return JSONReporter(write: write)
        }
    }

    /// The format a name of busted's `-o`/`--output` (or ours) stands for, whatever its case:
    /// `utfTerminal` and `plainTerminal` (busted's terminal reports) are `pretty`; `TAP`, `junit`, `json`
    /// themselves. Nil for any other name.
    init?(outputName name: String) {
        switch name.lowercased() {
        case "pretty", "utfterminal", "plainterminal": self = .pretty
        case "tap": self = .tap
        case "junit": self = .junit
        case "json": self = .json
        default: return nil
        }
    }

    /// busted's output handlers envscript has no counterpart of: a name of these given to `-o` is an
    /// error rather than the name of a report file.
    static let bustedHandlersWithoutCounterpart: Set<String> = ["gtest", "sound"]
}
