import Foundation
import Testing

/// A table whose subtables repeat (`t = {t, t}` twenty-three times: a few kilobytes in Lua, 16 million
/// values written out) handed to the host is refused at once with a message, in every entry point
/// the security review found reading it once per path (2.8–3.0 GB in 10–26 s under these limits).
@Suite(.timeLimit(.minutes(15))) struct RepeatedSubtableTests {
    @Test(arguments: [
        "tweak.set('f', 'v', t)",
        "tweak.value('f', 'v', nil, t)",
        "tweak.ephemeral({f = {v = t}})",
        "state.memory('k', t)",
    ])
    func theHostRefusesItQuicklyUnderTheLimits(_ call: String) throws {
        let scratch = try Scratch()
        try scratch.write("doubling.lua", """
            local t = {1}
            for i = 1, 23 do t = {t, t} end
            local ok, message = pcall(function() return \(call) end)
            print(ok, message)
            """)
        let clock = ContinuousClock()
        let started = clock.now
        let outcome = try EnvScriptProcess.run(
            ["run", "--no-init", "--timeout", "2", "--memory-limit", "32", "doubling.lua"], in: scratch.url, timeout: 60)
        #expect(started.duration(to: clock.now) < .seconds(10))
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.hasPrefix("false\t"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("counting each repeated subtable every time it appears"), "\(outcome.standardOutput)")
    }
}
