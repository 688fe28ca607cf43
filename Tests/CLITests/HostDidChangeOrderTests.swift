import Foundation
import Locking
import TestSupport
import Testing

/// The did-change part of running hosts in switches other processes make (issue #32, point 14): every
/// hook sees the switch it belongs to, in order, and writes where that switch put the data; a host too
/// busy to take its part in time is reported, not counted as a plain success.
@Suite(.timeLimit(.minutes(15))) struct HostDidChangeOrderTests {
    typealias RunningHost = RunningHostTests.RunningHost

    /// A host script whose did-change hook logs `did FROM TO`, takes a moment (as real work does), then
    /// appends `NAME TO` to the file `visits` of the live home; with `willHook`, its will-change hook
    /// logs `will FROM TO` too.
    private static func script(name: String, home: String, willHook: Bool) -> String {
        let will = willHook ? "container.on_will_change(function(to, from) mark('log', 'will ' .. from.name .. ' ' .. to.name) end)\n" : ""
        return will + """
            container.on_did_change(function(to, from)
                mark('log', 'did ' .. from.name .. ' ' .. to.name)
                local busy_until = os.clock() + 0.05
                while os.clock() < busy_until do end
                local file = assert(io.open('\(home)/visits', 'a'))
                file:write('\(name) ', to.name, '\\n')
                file:close()
            end)

            """
    }

    /// The lines of the file `visits` of each container, activating each in turn (no host attached).
    private static func visits(_ scratch: Scratch, home: String, containers: [String]) throws -> [String: [String]] {
        var visits: [String: [String]] = [:]
        for name in containers {
            let outcome = try scratch.run("container", "activate", name, "--home", home, "--no-init")
            #expect(outcome.status == 0, "\(outcome.standardError)")
            let text = (try? String(contentsOfFile: home + "/visits", encoding: .utf8)) ?? ""
            visits[name] = text.split(separator: "\n").map(String.init)
        }
        return visits
    }

    @Test func idleHostsSeeEverySwitchInOrderAndWriteIntoItsContainer() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        let names = ["DEFAULT", "A", "B", "C"]
        for name in names.dropFirst() {
            #expect(try scratch.run("container", "create", name, "--home", home, "--no-init").status == 0)
        }
        let first = try RunningHost(scratch, name: "first", home: home, script: Self.script(name: "first", home: home, willHook: true))
        // Without a will-change hook, nothing of this host holds up the next switch's preparation.
        let second = try RunningHost(scratch, name: "second", home: home, script: Self.script(name: "second", home: home, willHook: false))

        // Four switchers at once, each going round the containers from a different one.
        let switchers = 4, rounds = 6
        let outcomes = Locked<[String]>([])
        let failures = Locked<[String]>([])
        let folder = scratch.url
        DispatchQueue.concurrentPerform(iterations: switchers) { switcher in
            for round in 0..<rounds {
                let target = names[(switcher + round) % names.count]
                do {
                    let outcome = try EnvScriptProcess.run(
                        ["container", "activate", target, "--home", home, "--no-init", "--host-timeout", "30"], in: folder)
                    if outcome.status != 0 || !outcome.standardError.isEmpty {
                        failures.withLock { $0.append("activate \(target): exit \(outcome.status): \(outcome.standardError)") }
                    }
                    outcomes.withLock { $0.append(outcome.standardOutput) }
                } catch {
                    failures.withLock { $0.append("activate \(target) could not run: \(error)") }
                }
            }
        }
        #expect(first.stop().status == 0)
        #expect(second.stop().status == 0)
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        // A switch to the container already active changes nothing and asks no host.
        let switches = outcomes.withLock { $0 }.filter { $0.contains("(2 running hosts took part: ") }.count
        #expect(switches > 0)

        let log = first.marks("log")
        let did = log.filter { $0.hasPrefix("did ") }
        #expect(did.count == switches, "one did-change per switch: \(log)")
        #expect(second.marks("log") == did, "both hosts saw the same switches in the same order")
        // Each switch's will-change, then its did-change, before the next switch begins.
        let paired = did.flatMap { ["will " + $0.dropFirst(4), $0] }
        #expect(log == paired, "\(log)")
        // One chain from DEFAULT: each switch leaves the container the one before it arrived in.
        var live = "DEFAULT"
        for line in did {
            let ends = line.split(separator: " ").map(String.init)
            #expect(ends.count == 3 && ends[1] == live && ends[2] != live, "'\(line)' after a switch to \(live): \(did)")
            live = ends.last ?? live
        }

        // Every hook's write is in the container its switch made live.
        let visits = try Self.visits(scratch, home: home, containers: names)
        for (name, lines) in visits {
            for line in lines { #expect(line.hasSuffix(" \(name)"), "'\(line)' landed in \(name)") }
        }
        #expect(visits.values.map(\.count).reduce(0, +) == 2 * switches, "\(visits)")
    }

    @Test func aDidChangeHookChangingContainersForAnotherProcessFailsAtOnce() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        #expect(try scratch.run("container", "create", "B", "--home", home, "--no-init").status == 0)
        // The asker holds the home's lock until the hook has run: waiting for it would last until the
        // asker's timeout.
        let host = try RunningHost(scratch, name: "app", home: home, script: """
            container.on_did_change(function(to)
                local ok, message = pcall(container.create, 'Made by a hook')
                mark('log', tostring(ok) .. ' ' .. tostring(message))
            end)
            """)
        let outcome = try scratch.run("container", "activate", "B", "--home", home, "--no-init", "--host-timeout", "60")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardError.isEmpty, "no host was late: \(outcome.standardError)")
        let log = host.marks("log")
        #expect(log.count == 1 && log.allSatisfy { $0.hasPrefix("false ") && $0.contains("cannot create a container") }, "\(log)")
        #expect(host.stop().status == 0)
    }

    @Test func aBusyHostIsReportedAndCatchesUpWhereTheDataIs() async throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        for name in ["B", "C"] {
            #expect(try scratch.run("container", "create", name, "--home", home, "--no-init").status == 0)
        }
        // The script keeps the host's Lua state busy until the file `go` appears; reading its own
        // file on each turn keeps the loop well within the instruction budget of one call into Lua.
        let go = scratch.url.appendingPathComponent("go").path
        let own = scratch.url.appendingPathComponent("busy/host.lua").path
        let host = try RunningHost(scratch, name: "busy", home: home, script: Self.script(name: "busy", home: home, willHook: false) + """
            mark('busy', 'yes')
            while true do
                local file = io.open('\(go)')
                if file then file:close() break end
                file = assert(io.open('\(own)'))
                file:read('a')
                file:close()
            end
            """, waitsUntilReady: false)
        ChildProcess.waitForFile(host.folder.appendingPathComponent("busy").path)

        for target in ["B", "C"] {
            let outcome = try scratch.run("container", "activate", target, "--home", home, "--no-init", "--host-timeout", "4")
            #expect(outcome.status == 0, "\(outcome.standardError)")
            #expect(outcome.standardOutput == "activated \(target) (1 running host took part: pid \(host.pid))\n")
            // Not a plain success: the host did not run its did-change hooks with this switch.
            #expect(outcome.standardError.contains(
                "warning: the running host pid \(host.pid) did not reload and run its did-change hooks"), "\(outcome.standardError)")
        }
        #expect(host.marks("log").isEmpty, "no hook ran while the script kept the host busy: \(host.marks("log"))")

        _ = FileManager.default.createFile(atPath: go, contents: nil)
        host.waitUntilReady()
        // Once free, the host catches up with the home's lock held: one did-change from the container
        // it last saw to the one live, whose data is where the hook writes.
        try await waitUntil("the busy host caught up", timeout: .seconds(60)) { !host.marks("log").isEmpty }
        #expect(host.stop().status == 0)
        #expect(host.marks("log") == ["did DEFAULT C"])
        let visits = try Self.visits(scratch, home: home, containers: ["DEFAULT", "B", "C"])
        #expect(visits == ["DEFAULT": [], "B": [], "C": ["busy C"]])
    }
}
