import Foundation
import Locking
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A running application (an attached host) and the command line on one home at the same time: the
/// host takes part in every switch the command line makes (issue "One home, many processes").
@Suite(.timeLimit(.minutes(15))) struct RunningHostTests {
    /// An attached host running `script` in a folder of its own; `mark(name, text)` in the script
    /// appends a line to a file of that folder.
    /// (`@unchecked Sendable`: what it holds is set once; the child process is its own.)
    final class RunningHost: @unchecked Sendable {
        let folder: URL
        let process: ChildProcess
        /// What every script of the host starts with (`mark`).
        private let prelude: String

        /// Starts the host (running `script` as its start-up script with `asStartupScript`); unless
        /// `waitsUntilReady` is false (a script that keeps the host busy), returns once its script has run.
        init(
            _ scratch: Scratch, name: String, home: String, script: String, waitsUntilReady: Bool = true,
            asStartupScript: Bool = false
        ) throws {
            folder = scratch.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            prelude = """
                local function mark(name, text)
                    local file = assert(io.open('\(folder.path)/' .. name, 'a'))
                    file:write(tostring(text), '\\n')
                    file:close()
                end

                """
            let path = folder.appendingPathComponent("host.lua").path
            try (prelude + script).write(toFile: path, atomically: true, encoding: .utf8)
            process = try EnvScriptProcess.start(
                [home, path, folder.path], in: scratch.url,
                environment: asStartupScript ? ["ENVSCRIPT_HELPER_STARTUP": "1"] : [:], binary: "AttachedHostHelper")
            if waitsUntilReady { waitUntilReady() }
        }

        /// Replaces the host's script (what a reload runs).
        func rewrite(_ script: String) throws {
            try (prelude + script).write(to: folder.appendingPathComponent("host.lua"), atomically: true, encoding: .utf8)
        }

        /// Waits until the host's script has run.
        func waitUntilReady() {
            ChildProcess.waitForFile(folder.appendingPathComponent("ready").path)
        }

        var pid: Int32 { process.pid }

        /// The lines of a mark file.
        func marks(_ name: String) -> [String] {
            let text = (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
            return text.split(separator: "\n").map(String.init)
        }

        /// Lets the host end (running its `on_stop`) and waits for it.
        @discardableResult
        func stop() -> EnvScriptProcess.Outcome {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("stop").path, contents: nil)
            return process.wait()
        }
    }

    private func activeName(_ scratch: Scratch, home: String) throws -> String {
        let info = try scratch.run("container", "info", "--json", "--home", home, "--no-init")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any])
        return try #require(record["name"] as? String)
    }

    @Test func aRunningHostTakesPartInASwitchAskedByTheCommandLine() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        #expect(try scratch.run("container", "create", "B", "--home", home, "--no-init").status == 0)
        // B holds its own value of k.
        try scratch.write("seed.lua", "state.stored('k', '') container.activate('B') state.set('k', 'B-value') container.activate('DEFAULT')")
        #expect(try scratch.run("run", "--home", home, "--no-init", "seed.lua").status == 0)

        let host = try RunningHost(scratch, name: "app", home: home, script: """
            state.stored('k', '')
            state.set('k', 'DEFAULT-value')
            container.on_will_change(function(to, from) mark('hooks', 'will ' .. from.name .. ' ' .. to.name) end)
            container.on_did_change(function(to, from) mark('hooks', 'did ' .. to.name .. ' ' .. state.get('k')) end)
            function on_stop() mark('final', container.active().name .. ' ' .. state.get('k')) end
            """)
        let outcome = try scratch.run("container", "activate", "B", "--home", home, "--no-init")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput == "activated B (1 running host took part: pid \(host.pid))\n")
        // The host's hooks ran, and its state followed: the did-change hook already read B's value.
        #expect(host.marks("hooks") == ["will DEFAULT B", "did B B-value"])
        host.stop()
        #expect(host.marks("final") == ["B B-value"])

        try scratch.write("show.lua", "state.stored('k', '') print(state.get('k')) container.activate('DEFAULT') print(state.get('k'))")
        let shown = try scratch.run("run", "--home", home, "--no-init", "show.lua")
        #expect(shown.standardOutput == "B-value\nDEFAULT-value\n", "B's value intact, DEFAULT's flushed before the switch")
    }

    @Test func aRunningHostSeesAFlagAndStateSetFromTheCommandLine() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        let host = try RunningHost(scratch, name: "app", home: home, script: """
            state.stored('session', 'none')
            tweak.set('own', 'flag', 'kept')
            tweak.on_change(function(t) mark('changes', t.feature .. '.' .. t.variable .. '=' .. tostring(t.value)) end)
            function on_stop()
                mark('final', tweak.value('checkout', 'color', 'unset') .. ' ' .. tweak.value('own', 'flag', 'gone') .. ' ' .. state.get('session'))
            end
            """)
        let set = try scratch.run("tweak", "set", "checkout", "color", "red", "--home", home, "--no-init")
        #expect(set.status == 0, "\(set.standardError)")
        // The command line told the running host, which adopted the override while running.
        #expect(host.marks("changes") == ["checkout.color=red"])
        try scratch.write("login.lua", "state.stored('session', 'none') state.set('session', 'alice')")
        #expect(try scratch.run("run", "--home", home, "--no-init", "login.lua").status == 0)
        host.stop()
        #expect(host.marks("final") == ["red kept alice"])
    }

    @Test func aHookOfARunningHostRefusesAndNothingChanges() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        #expect(try scratch.run("container", "create", "Frozen", "--home", home, "--no-init").status == 0)
        let host = try RunningHost(scratch, name: "app", home: home, script: """
            container.on_will_change(function(to) if to.name == 'Frozen' then error('Frozen is off limits') end end)
            """)
        let outcome = try scratch.run("container", "activate", "Frozen", "--home", home, "--no-init")
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("pid \(host.pid) refused"))
        #expect(outcome.standardError.contains("Frozen is off limits"))
        #expect(try activeName(scratch, home: home) == "DEFAULT")
        #expect(host.stop().status == 0)
    }

    @Test func twoRunningHostsBothTakePart() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        #expect(try scratch.run("container", "create", "B", "--home", home, "--no-init").status == 0)
        let script = "container.on_did_change(function(to) mark('did', to.name) end)"
        let first = try RunningHost(scratch, name: "first", home: home, script: script)
        let second = try RunningHost(scratch, name: "second", home: home, script: script)
        let outcome = try scratch.run("container", "activate", "B", "--home", home, "--no-init")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("(2 running hosts took part: "))
        #expect(outcome.standardOutput.contains("pid \(first.pid)") && outcome.standardOutput.contains("pid \(second.pid)"))
        #expect(first.marks("did") == ["B"])
        #expect(second.marks("did") == ["B"])
        // One host switching gives the other its part too.
        try scratch.write("back.lua", "container.activate('DEFAULT')")
        first.stop()
        #expect(try scratch.run("container", "activate", "DEFAULT", "--home", home, "--no-init").status == 0)
        #expect(second.marks("did") == ["B", "DEFAULT"])
        second.stop()
    }

    @Test func aResetGivesTheRunningHostItsPartAndKeepsItAttached() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        #expect(try scratch.run("container", "create", "B", "--home", home, "--no-init").status == 0)
        let host = try RunningHost(scratch, name: "app", home: home, script: """
            container.on_did_change(function(to) mark('did', to.name) end)
            """)
        #expect(try scratch.run("container", "activate", "B", "--home", home, "--no-init").status == 0)
        // The bookkeeping of attached hosts is never a container, nor switched with one.
        let list = try scratch.run("container", "list", "--json", "--home", home, "--no-init")
        let names = try #require(ContainerListJSON(list.standardOutput), "\(list.standardOutput)").containers
            .compactMap { $0["name"] as? String }
        #expect(names == ["DEFAULT", "B"])
        let reset = try scratch.run("container", "reset", "--home", home, "--no-init")
        #expect(reset.standardOutput == "reset the home (1 running host took part: pid \(host.pid))\n")
        #expect(host.marks("did") == ["B", "DEFAULT"])
        // Still attached after the reset: it takes part in the next switch.
        #expect(try scratch.run("container", "create", "C", "--home", home, "--no-init").status == 0)
        let next = try scratch.run("container", "activate", "C", "--home", home, "--no-init")
        #expect(next.standardOutput == "activated C (1 running host took part: pid \(host.pid))\n")
        #expect(host.stop().status == 0)
    }

    @Test func aStoppedHostCostsTheAskerOnlyTheTimeoutAndNothingChanges() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        #expect(try scratch.run("container", "create", "B", "--home", home, "--no-init").status == 0)
        let host = try RunningHost(scratch, name: "app", home: home, script: """
            state.stored('k', '') state.set('k', 'mine')
            function on_stop() mark('final', container.active().name .. ' ' .. state.get('k')) end
            """)
        host.process.send(SIGSTOP)
        let outcome = try scratch.run("container", "activate", "B", "--home", home, "--no-init", "--host-timeout", "2")
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("pid \(host.pid) did not answer within 2 s"))
        #expect(try activeName(scratch, home: home) == "DEFAULT")

        host.process.send(SIGCONT)
        host.stop()
        #expect(host.marks("final") == ["DEFAULT mine"], "after SIGCONT the host is where the home is")
        #expect(try scratch.run("container", "activate", "B", "--home", home, "--no-init").status == 0)
    }

    @Test func aKilledHostIsNeverWaitedFor() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        #expect(try scratch.run("container", "create", "B", "--home", home, "--no-init").status == 0)
        let host = try RunningHost(scratch, name: "app", home: home, script: "")
        host.process.send(SIGKILL)
        host.process.wait()
        let outcome = try scratch.run("container", "activate", "B", "--home", home, "--no-init", "--host-timeout", "30")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput == "activated B\n")
        let hosts = try FileManager.default.contentsOfDirectory(atPath: home + "/.envscript-containers/hosts")
        #expect(hosts.isEmpty, "the dead host's record, lock and socket were removed: \(hosts)")
    }

    @Test func anAskerKilledBetweenThePhasesLeavesNoHostStuck() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        #expect(try scratch.run("container", "create", "B", "--home", home, "--no-init").status == 0)
        let ready = try RunningHost(scratch, name: "ready", home: home, script: """
            container.on_will_change(function(to) mark('will', to.name) end)
            container.on_did_change(function(to) mark('did', to.name) end)
            function on_stop() mark('final', container.active().name) end
            """)
        // A second host that never answers keeps the asker waiting between the phases.
        let stuck = try RunningHost(scratch, name: "stuck", home: home, script: "")
        stuck.process.send(SIGSTOP)
        let asker = try EnvScriptProcess.start(
            ["container", "activate", "B", "--home", home, "--no-init", "--host-timeout", "60"], in: scratch.url)
        ChildProcess.waitForFile(ready.folder.appendingPathComponent("will").path)
        asker.send(SIGKILL)
        asker.wait()
        stuck.process.send(SIGCONT)

        // Nothing changed, and both hosts go on: a new switch works with both taking part.
        #expect(try activeName(scratch, home: home) == "DEFAULT")
        let outcome = try scratch.run("container", "activate", "B", "--home", home, "--no-init", "--host-timeout", "20")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("2 running hosts took part"))
        #expect(ready.marks("did") == ["B"])
        ready.stop()
        stuck.stop()
        #expect(ready.marks("final") == ["B"])
    }

    @Test func reloadAsksEveryRunningHostAndSaysWhichKeptItsScripts() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        let script = { (value: String) in
            """
            tweak.stack{ tweak.ephemeral({ a = { x = '\(value)' } }, 'flags') }
            function on_stop() mark('final', tweak.value('a', 'x', 'none')) end
            """
        }
        let first = try RunningHost(scratch, name: "first", home: home, script: script("one"), asStartupScript: true)
        let second = try RunningHost(scratch, name: "second", home: home, script: script("one"), asStartupScript: true)
        try first.rewrite(script("two"))
        try second.rewrite(script("two"))

        let reloaded = try scratch.run("reload", "--home", home, "--no-init")
        #expect(reloaded.status == 0, "\(reloaded.standardError)")
        #expect(reloaded.standardOutput.contains("pid \(first.pid)") && reloaded.standardOutput.contains("pid \(second.pid)"))
        #expect(reloaded.standardOutput.contains("reloaded 1 start-up script"), "\(reloaded.standardOutput)")

        // One host's script breaks on line 2: it keeps its scripts, and the command says so and fails.
        try second.rewrite("tweak.stack{ tweak.ephemeral({ a = { x = 'three' } }, 'flags') }\nerror('broken on purpose')")
        try first.rewrite(script("three"))
        let partly = try scratch.run("reload", "--home", home, "--no-init", "--json")
        #expect(partly.status == 1)
        let outcomes = try #require(try JSONSerialization.jsonObject(with: Data(partly.standardOutput.utf8)) as? [[String: Any]])
        let byPID = Dictionary(uniqueKeysWithValues: outcomes.map { ($0["pid"] as? Int ?? 0, $0) })
        #expect(byPID[Int(first.pid)]?["reloaded"] as? Bool == true)
        #expect(byPID[Int(second.pid)]?["reloaded"] as? Bool == false)
        #expect((byPID[Int(second.pid)]?["error"] as? String)?.contains("host.lua:") == true, "\(outcomes)")
        #expect((byPID[Int(second.pid)]?["error"] as? String)?.contains("broken on purpose") == true)

        first.stop()
        second.stop()
        #expect(first.marks("final") == ["three"])
        #expect(second.marks("final") == ["two"])
    }

    @Test func reloadWithNoRunningHostFails() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        #expect(try scratch.run("container", "create", "B", "--home", home, "--no-init").status == 0)
        let outcome = try scratch.run("reload", "--home", home, "--no-init")
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("no running host is attached"), "\(outcome.standardError)")
    }

    @Test func aReloadRacingSwitchesFromTheCommandLineNeverSplitsASwitchBetweenTwoScripts() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        #expect(try scratch.run("container", "create", "B", "--home", home, "--no-init").status == 0)
        let script = { @Sendable (version: String) in
            """
            container.on_will_change(function(to, from) mark('hooks', 'will \(version) ' .. to.name) end)
            container.on_did_change(function(to, from) mark('hooks', 'did \(version) ' .. to.name) end)
            """
        }
        let host = try RunningHost(scratch, name: "app", home: home, script: script("v0"), asStartupScript: true)
        let folder = scratch.url
        let failures = Locked<[String]>([])
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) {
            for round in 1...8 {
                do {
                    try host.rewrite(script("v\(round)"))
                    let outcome = try EnvScriptProcess.run(["reload", "--home", home, "--no-init"], in: folder)
                    if outcome.status != 0 { failures.withLock { $0.append("reload: \(outcome.standardError)") } }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        DispatchQueue.global().async(group: done) {
            for round in 1...8 {
                do {
                    let outcome = try EnvScriptProcess.run(
                        ["container", "activate", round % 2 == 1 ? "B" : "DEFAULT", "--home", home, "--no-init"], in: folder)
                    if outcome.status != 0 { failures.withLock { $0.append("switch: \(outcome.standardError)") } }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        done.wait()
        host.stop()
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        // Each switch's will-change and did-change hooks come from the same script.
        let marks = host.marks("hooks")
        #expect(marks.count == 16, "\(marks)")
        for pair in stride(from: 0, to: marks.count - 1, by: 2) {
            let will = marks[pair].split(separator: " "), did = marks[pair + 1].split(separator: " ")
            #expect(will.first == "will" && did.first == "did" && will.dropFirst().elementsEqual(did.dropFirst()),
                    "a switch began under \(marks[pair]) and ended under \(marks[pair + 1])")
        }
    }
}
