import Foundation

/// One run of a test tool that reports in TAP (`envscript run --format tap`, `busted --output TAP`):
/// its wall time, once every one of `tests` tests has passed (that many `ok` lines, no `not ok`); a
/// run that reports anything else is an error naming `what`.
func timedTAPRun(_ program: ChildProgram, in folder: URL, tests: Int, what: String) throws -> Double {
    let run = try program.runChecked(in: folder, what: what)
    let lines = run.output.split(separator: "\n")
    let passed = lines.filter { $0.hasPrefix("ok ") }.count
    let failed = lines.filter { $0.hasPrefix("not ok") }.count
    guard passed == tests, failed == 0 else {
        throw BenchFailure("\(what) reported \(passed) tests passed and \(failed) not, of \(tests)")
    }
    return run.nanoseconds
}
