import ArgumentParser
import EnvScript
import Scenarios

/// The formats of `envscript run --format`.
enum ReportFormat: String, CaseIterable, ExpressibleByArgument {
    case pretty, tap, junit

    /// The reporter of this format, writing lines with `write`.
    func reporter(write: @escaping (String) -> Void) -> any ScenarioReporter {
        switch self {
        case .pretty: return PrettyReporter(write: write)
        case .tap: return TAPReporter(write: write)
        case .junit: return JUnitReporter(write: write)
        }
    }
}
