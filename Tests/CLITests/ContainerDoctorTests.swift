import Foundation
import Testing

/// `envscript container doctor [--repair]` and `container list` on damaged homes, against the built binary.
@Suite(.timeLimit(.minutes(15))) struct ContainerDoctorTests {
    /// A home under a scratch folder, with paths into its bookkeeping.
    struct Home {
        let scratch: Scratch
        var path: String { scratch.url.path + "/home" }
        var bookkeeping: String { path + "/.envscript-containers" }
        func folder(of uuid: String) -> String { bookkeeping + "/containers/" + uuid }

        func run(_ arguments: String...) throws -> EnvScriptProcess.Outcome {
            try scratch.run(arguments + ["--home", path])
        }

        /// Creates a container and returns its UUID.
        func create(_ name: String) throws -> String {
            let created = try run("container", "create", name)
            #expect(created.status == 0, "\(created.standardError)")
            return created.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func write(_ text: String, to path: String) throws {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: false, encoding: .utf8)
        }

        func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

        func names(in folder: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        }

        func mode(of path: String) throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
    }

    @Test func aDamagedInactiveRecordIsListedAsDamagedAndRepairedKeepingItsData() throws {
        let home = Home(scratch: try Scratch())
        try home.write("original", to: home.path + "/session.txt")
        _ = try home.create("A")
        let b = try home.create("B")
        try home.write("b's data", to: home.folder(of: b) + "/data/b.txt")
        try home.write("{not json", to: home.folder(of: b) + "/container.json")

        let list = try home.run("container", "list")
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.standardOutput.contains("DEFAULT") && list.standardOutput.contains("A"))
        #expect(list.standardOutput.contains("(damaged)") && list.standardOutput.contains(b), "\(list.standardOutput)")
        #expect(list.standardError.contains("container doctor"), "\(list.standardError)")
        let json = try home.run("container", "list", "--json")
        let listed = try #require(ContainerListJSON(json.standardOutput), "\(json.standardOutput)")
        #expect(listed.containers.compactMap { $0["name"] as? String } == ["DEFAULT", "A"])
        #expect(listed.damaged.map { $0["uuid"] as? String } == [b])
        #expect(listed.damaged.first?["record_path"] as? String != nil && listed.damaged.first?["problem"] as? String != nil)
        // Lua's container.list() sets it apart too, as its second result.
        _ = try home.scratch.write("list.lua", """
            local containers, damaged = container.list()
            for _, c in ipairs(containers) do print('listed ' .. c.name) end
            for _, d in ipairs(damaged) do print('damaged ' .. d.uuid .. ' ' .. tostring(d.is_active) .. ' ' .. d.record_path) end
            """)
        let lua = try home.run("run", "--no-init", "list.lua")
        #expect(lua.status == 0, "\(lua.standardError)")
        #expect(lua.standardOutput.contains("listed DEFAULT\nlisted A\ndamaged \(b) false \(home.folder(of: b))/container.json"), "\(lua.standardOutput)")

        // A healthy container still switches; the damaged one is refused with the way out.
        let activate = try home.run("container", "activate", "A")
        #expect(activate.status == 0, "\(activate.standardError)")
        let refused = try home.run("container", "activate", b)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("container doctor"), "\(refused.standardError)")

        let report = try home.run("container", "doctor")
        #expect(report.status == 1, "\(report.standardOutput)\(report.standardError)")
        #expect(report.standardOutput.contains("damaged container record: '\(home.folder(of: b))/container.json'"), "\(report.standardOutput)")

        let repair = try home.run("container", "doctor", "--repair")
        #expect(repair.status == 0, "\(repair.standardOutput)\(repair.standardError)")
        let quarantine = home.bookkeeping + "/quarantine"
        #expect(repair.standardOutput.contains(quarantine), "\(repair.standardOutput)")
        #expect(try home.mode(of: quarantine) == 0o700)
        let kept = try #require(home.names(in: quarantine).first)
        #expect(kept.contains(b) && home.read(quarantine + "/" + kept) == "{not json")
        #expect(home.read(home.folder(of: b) + "/data/b.txt") == "b's data")

        let after = try home.run("container", "list")
        #expect(after.status == 0 && !after.standardOutput.contains("(damaged)") && after.standardError.isEmpty, "\(after.standardOutput)\(after.standardError)")
        #expect(after.standardOutput.contains("Recovered " + b.prefix(8)))
        #expect(try home.run("container", "doctor").status == 0)
        #expect(try home.run("container", "activate", b).status == 0)
        #expect(home.read(home.path + "/b.txt") == "b's data")
    }

    @Test func aHomeHalfSwitchedWhenItsJournalWasMovedAwayIsReportedAndPutRight() throws {
        let home = Home(scratch: try Scratch())
        for name in ["a", "b", "c"] { try home.write("default \(name)", to: home.path + "/" + name) }
        let b = try home.create("B")
        for name in ["x", "y"] { try home.write("B \(name)", to: home.folder(of: b) + "/data/" + name) }

        // Killed after three entries moved out and one moved in, then the journal moved away by hand.
        let crashed = try EnvScriptProcess.run(
            ["switch", home.path, "B"], in: home.scratch.url, environment: ["ENVSCRIPT_CRASH_AT": "moved-4"],
            binary: "ContainersCrashHelper")
        #expect(crashed.status != 0)
        let journal = home.bookkeeping + "/journal.json"
        #expect(FileManager.default.fileExists(atPath: journal))
        try FileManager.default.moveItem(atPath: journal, toPath: journal + ".refused")
        #expect(home.names(in: home.path) == [".envscript-containers", "x"])

        let list = try home.run("container", "list")
        #expect(list.status == 0 && list.standardError.contains("the home is half switched"), "\(list.standardError)")
        let report = try home.run("container", "doctor")
        #expect(report.status == 1)
        #expect(report.standardOutput.contains("half switched home: '\(journal).refused'"), "\(report.standardOutput)")
        let repair = try home.run("container", "doctor", "--repair")
        #expect(repair.status == 0, "\(repair.standardOutput)\(repair.standardError)")

        // DEFAULT is active, as the state record says, with every entry of each container in its place.
        #expect(home.names(in: home.path) == [".envscript-containers", "a", "b", "c"])
        for name in ["a", "b", "c"] { #expect(home.read(home.path + "/" + name) == "default \(name)") }
        #expect(home.names(in: home.folder(of: b) + "/data") == ["x", "y"])
        #expect(home.names(in: home.bookkeeping + "/quarantine").contains { $0.hasSuffix("journal.json.refused") })
        #expect(try home.run("container", "doctor").status == 0)
        #expect(try home.run("container", "activate", "B").status == 0)
        #expect(home.names(in: home.path) == [".envscript-containers", "x", "y"])
    }

    @Test func temporaryFilesAndLooseModesAreReportedThenRepaired() throws {
        let home = Home(scratch: try Scratch())
        let b = try home.create("B")
        let strays = [home.bookkeeping + "/.state.json.tmp-AB12CD", home.folder(of: b) + "/.container.json.tmp-EF34GH"]
        for stray in strays { try home.write("half written", to: stray) }
        #expect(chmod(home.bookkeeping + "/containers", 0o755) == 0)

        let report = try home.run("container", "doctor", "--json")
        #expect(report.status == 1)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(report.standardOutput.utf8)) as? [String: Any])
        #expect(parsed["isConsistent"] as? Bool == false)
        let entries = try #require(parsed["inconsistencies"] as? [[String: Any]])
        #expect(Set(entries.compactMap { $0["path"] as? String }) == Set(strays + [home.bookkeeping + "/containers"]))
        #expect(entries.allSatisfy { $0["outcome"] as? String == "found" && $0["isRepairable"] as? Bool == true })
        #expect(entries.filter { $0["kind"] as? String == "temporaryFile" }.count == 2)
        // Reporting changed nothing.
        for stray in strays { #expect(FileManager.default.fileExists(atPath: stray)) }

        let repair = try home.run("container", "doctor", "--repair")
        #expect(repair.status == 0, "\(repair.standardOutput)\(repair.standardError)")
        for stray in strays { #expect(!FileManager.default.fileExists(atPath: stray)) }
        #expect(try home.mode(of: home.bookkeeping + "/containers") == 0o700)
        let clean = try home.run("container", "doctor")
        #expect(clean.status == 0 && clean.standardOutput.contains("is consistent"), "\(clean.standardOutput)")
    }
}
