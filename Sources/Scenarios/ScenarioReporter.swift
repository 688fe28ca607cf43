/// Receives the results of a scenario run as it goes, and writes them in some format.
package protocol ScenarioReporter: AnyObject {
    /// Called once, before the first test, with the number of tests that will run.
    func runWillStart(testCount: Int)
    /// Called after each test.
    func testDidFinish(_ result: ScenarioResult)
    /// Called once at the end.
    func runDidFinish(_ summary: ScenarioSummary)
}
