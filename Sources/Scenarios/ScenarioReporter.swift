/// Receives the results of a scenario run as it goes, and writes them in some format.
package protocol ScenarioReporter: AnyObject {
    /// Called once, before the first test. How many tests will run is known only at the end: a block's
    /// tests are declared when the run reaches its body, as in busted.
    func runWillStart()
    /// Called after each test.
    func testDidFinish(_ result: ScenarioResult)
    /// Called once at the end.
    func runDidFinish(_ summary: ScenarioSummary)
}
