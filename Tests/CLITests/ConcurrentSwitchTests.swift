import Foundation
import Locking
import TestSupport
import Testing

/// Switches asked through a running host's control API and from the command line at the same time
/// (issue #31, point 10): neither waits for the other until the host timeout.
@Suite(.timeLimit(.minutes(15))) struct ConcurrentSwitchTests {
    /// What one switch cost and how it ended.
    struct Attempt: Sendable {
        var asker: String
        var seconds: Double
        var succeeded: Bool
        var detail: String
    }

    /// The socket of the one host attached to `home`, from its record.
    private func socketPath(home: String) throws -> String {
        let hosts = home + "/.envscript-containers/hosts"
        let record = try #require(try FileManager.default.contentsOfDirectory(atPath: hosts).first { $0.hasSuffix(".json") })
        let data = try Data(contentsOf: URL(fileURLWithPath: hosts + "/" + record))
        let fields = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(fields["socketPath"] as? String)
    }

    /// Times `body`, a switch that says whether it succeeded and what it printed.
    private static func timed(_ asker: String, _ body: () throws -> (Bool, String)) -> Attempt {
        let start = Date()
        let (succeeded, detail) = (try? body()) ?? (false, "could not start")
        return Attempt(asker: asker, seconds: Date().timeIntervalSince(start), succeeded: succeeded, detail: detail)
    }

    @Test func apiAndCommandLineSwitchesNeverWaitForTheHostTimeout() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        for name in ["A", "B"] {
            #expect(try scratch.run("container", "create", name, "--home", home, "--no-init").status == 0)
            #expect(try scratch.run("container", "activate", name, "--home", home, "--no-init").status == 0)
            try name.write(toFile: home + "/marker", atomically: true, encoding: .utf8)
        }
        // Lua hooks take the host's lock, which a control request holds while its switch runs.
        let host = try RunningHostTests.RunningHost(scratch, name: "app", home: home, script: """
            container.on_will_change(function(to, from) mark('will', to.name) end)
            container.on_did_change(function(to, from) mark('did', to.name) end)
            """)
        let socket = try socketPath(home: home)
        let curl = URL(fileURLWithPath: "/usr/bin/curl")
        let hostTimeout = 8.0
        let rounds = 8
        let attempts = Locked<[Attempt]>([])
        let commandLineDone = Locked(false)
        let folder = scratch.url
        // The command line switches `rounds` times; the API switches all the while, back and forth.
        DispatchQueue.concurrentPerform(iterations: 2) { asker in
            var round = 0
            while asker == 0 ? !commandLineDone.withLock({ $0 }) || round < rounds : round < rounds {
                let target = (round + asker).isMultiple(of: 2) ? "A" : "B"
                let attempt: Attempt
                if asker == 0 {
                    attempt = Self.timed("API") {
                        let outcome = try ChildProcess.run(
                            curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "60", "--unix-socket", socket,
                                   "-X", "POST", "http://localhost/v1/containers/\(target)/activate"],
                            in: folder, environment: [:])
                        return (outcome.standardOutput == "200", "HTTP \(outcome.standardOutput) \(outcome.standardError)")
                    }
                } else {
                    attempt = Self.timed("CLI") {
                        let outcome = try EnvScriptProcess.run(
                            ["container", "activate", target, "--home", home, "--no-init", "--host-timeout", "\(hostTimeout)"], in: folder)
                        return (outcome.status == 0, outcome.standardError)
                    }
                }
                attempts.withLock { $0.append(attempt) }
                round += 1
            }
            if asker == 1 { commandLineDone.withLock { $0 = true } }
        }
        let all = attempts.withLock { $0 }
        #expect(all.filter { $0.asker == "CLI" }.count == rounds)
        #expect(all.filter { $0.asker == "API" }.count >= rounds)
        for attempt in all {
            #expect(attempt.succeeded, "\(attempt.asker) switch failed: \(attempt.detail)")
            // A switch held up by the other asker waits for the host timeout, then fails or goes on.
            #expect(attempt.seconds < hostTimeout / 2, "\(attempt.asker) switch took \(attempt.seconds) s")
        }
        host.stop()
        // No file lost or mixed up: the live marker is the active container's own.
        let active = try String(contentsOfFile: home + "/marker", encoding: .utf8)
        let info = try scratch.run("container", "info", "--json", "--home", home, "--no-init")
        #expect(info.standardOutput.contains("\"name\" : \"\(active)\"") || info.standardOutput.contains("\"name\":\"\(active)\""),
                "the live marker says \(active): \(info.standardOutput)")
        let other = active == "A" ? "B" : "A"
        #expect(try scratch.run("container", "activate", other, "--home", home, "--no-init").status == 0)
        #expect(try String(contentsOfFile: home + "/marker", encoding: .utf8) == other)
    }
}
