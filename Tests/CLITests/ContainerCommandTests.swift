import Foundation
import Testing

/// `envscript container`, against the built binary.
@Suite(.timeLimit(.minutes(15))) struct ContainerCommandTests {
    @Test func aSessionOnDebugLeavesTheOriginalUntouched() throws {
        let scratch = try Scratch()
        try scratch.write("home/session.txt", "original")
        let create = try scratch.run("container", "create", "Debug", "--description", "QA account", "--home", "home")
        #expect(create.status == 0)
        #expect(UUID(uuidString: create.standardOutput.trimmingCharacters(in: .newlines)) != nil)
        #expect(try scratch.run("container", "activate", "Debug", "--home", "home").status == 0)
        try scratch.write("home/session.txt", "debug login")
        #expect(try scratch.run("container", "activate", "DEFAULT", "--home", "home").status == 0)
        #expect(try String(contentsOf: scratch.url.appendingPathComponent("home/session.txt"), encoding: .utf8) == "original")

        let list = try scratch.run("container", "list", "--home", "home", "--json")
        let records = try #require(ContainerListJSON(list.standardOutput), "\(list.standardOutput)").containers
        #expect(records.map { $0["name"] as? String } == ["DEFAULT", "Debug"])
        #expect(records.first?["is_active"] as? Bool == true)
        let table = try scratch.run("container", "list", "--home", "home")
        #expect(table.standardOutput.contains("*  DEFAULT"))
        let info = try scratch.run("container", "info", "Debug", "--home", "home")
        #expect(info.standardOutput.contains("QA account"))
        // Debug's stash holds session.txt alone.
        #expect(info.standardOutput.contains("size on disk") && info.standardOutput.contains("in 1 entry"), "\(info.standardOutput)")
        let json = try scratch.run("container", "info", "Debug", "--home", "home", "--json")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let usage = try #require(record["disk_usage"] as? [String: Any], "\(json.standardOutput)")
        #expect(usage["entries"] as? Int == 1)
        #expect((usage["bytes"] as? Int ?? 0) > 0)
    }

    @Test func hooksOfTheStartUpScriptRunAroundCommandLineSwitches() throws {
        let scratch = try Scratch()
        try scratch.write("envscript.lua", """
            container.on_will_change(function(to, from)
              if to.name == 'Locked' then error('Locked is read-only today') end
            end)
            """)
        #expect(try scratch.run("container", "create", "Locked").status == 0)
        let refused = try scratch.run("container", "activate", "Locked")
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("Locked is read-only today"))
        let info = try scratch.run("container", "info", "--json")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any])
        #expect(record["name"] as? String == "DEFAULT")
    }

    @Test func clearErrorsForUnknownContainersAndBadNames() throws {
        let scratch = try Scratch()
        let unknown = try scratch.run("container", "activate", "Nope")
        #expect(unknown.status == 1)
        #expect(unknown.standardError.contains("'Nope'"))
        let empty = try scratch.run("container", "create", "")
        #expect(empty.status == 2)
        #expect(empty.standardError.contains("name"))
        let update = try scratch.run("container", "update", "DEFAULT")
        #expect(update.status == 2)
        #expect(try scratch.run("container", "delete", "DEFAULT").status == 1)
    }

    @Test func theHomeComesFromTheEnvironmentWithoutHome() throws {
        let scratch = try Scratch()
        let custom = scratch.url.appendingPathComponent("custom").path
        #expect(try scratch.run("container", "create", "FromEnv", environment: ["ENVSCRIPT_HOME": custom]).status == 0)
        let list = try scratch.run("container", "list", "--json", "--home", custom)
        #expect(list.standardOutput.contains("FromEnv"))
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent(".envscript").path))
    }

    @Test func cloneAndReset() throws {
        let scratch = try Scratch()
        try scratch.write("home/a.txt", "A")
        #expect(try scratch.run("container", "clone", "DEFAULT", "Copy", "--home", "home").status == 0)
        #expect(try scratch.run("container", "update", "Copy", "--name", "Second", "--home", "home").status == 0)
        #expect(try scratch.run("container", "activate", "Second", "--home", "home").status == 0)
        #expect(try String(contentsOf: scratch.url.appendingPathComponent("home/a.txt"), encoding: .utf8) == "A")
        #expect(try scratch.run("container", "reset", "--home", "home").status == 0)
        let list = try scratch.run("container", "list", "--home", "home", "--json")
        let records = try #require(ContainerListJSON(list.standardOutput), "\(list.standardOutput)").containers
        #expect(records.count == 1)
    }
}
