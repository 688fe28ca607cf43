import Foundation
import Testing
import TestSupport

/// `envscript container export|import|diff`, against the built binary: outputs, exit statuses, and
/// SIGKILL at random moments of an import or a clone.
@Suite(.timeLimit(.minutes(15))) struct ContainerSharingCommandTests {
    @Test func exportImportAndDiffFromTheCommandLine() throws {
        let scratch = try Scratch()
        let home = ["--home", "home", "--no-init"]
        try scratch.write("home/notes/today.txt", "bug seen at 10:02")
        #expect(try scratch.run(["tweak", "set", "checkout", "max_items", "5"] + home).status == 0)
        let export = try scratch.run(["container", "export", "DEFAULT", "--output", "state.zip"] + home)
        #expect(export.status == 0, "\(export.standardError)")
        #expect(export.standardOutput.hasPrefix("exported DEFAULT to state.zip ("))

        let taken = try scratch.run(["container", "import", "state.zip"] + home)
        #expect(taken.status == 1)
        #expect(taken.standardError.contains("'DEFAULT'") && taken.standardError.contains("--name"), "\(taken.standardError)")
        let imported = try scratch.run(["container", "import", "state.zip", "--name", "Bug 1234"] + home)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.hasPrefix("imported Bug 1234 ("))

        let same = try scratch.run(["container", "diff", "DEFAULT", "Bug 1234"] + home)
        #expect(same.standardOutput == "no differences between DEFAULT and Bug 1234\n")
        try scratch.write("home/notes/today.txt", "bug fixed")
        #expect(try scratch.run(["tweak", "set", "checkout", "max_items", "9"] + home).status == 0)
        let text = try scratch.run(["container", "diff", "state.zip", "DEFAULT"] + home)
        #expect(text.status == 0)
        #expect(text.standardOutput.contains("~ notes/today.txt (17 bytes -> 9 bytes)"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("~ tweak checkout.max_items: 5 -> 9"), "\(text.standardOutput)")
        let json = try scratch.run(["container", "diff", "Bug 1234", "DEFAULT", "--json"] + home)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let keys = try #require((record["preferences"] as? [String: Any])?["changed"] as? [[String: Any]])
        #expect(keys.first?["name"] as? String == "checkout.max_items")
        #expect(keys.first?["before"] as? Int == 5 && keys.first?["after"] as? Int == 9)
    }

    @Test func badArchivesAndArgumentsExitWithStatusTwo() throws {
        let scratch = try Scratch()
        let home = ["--home", "home", "--no-init"]
        try scratch.write("not-a-zip.zip", "PK? no")
        let damaged = try scratch.run(["container", "import", "not-a-zip.zip"] + home)
        #expect(damaged.status == 2)
        #expect(damaged.standardError.contains("not-a-zip.zip") && damaged.standardError.contains("truncated or damaged"))
        #expect(!damaged.standardError.contains("PK? no"), "the file's contents are never quoted")
        let missing = try scratch.run(["container", "diff", "DEFAULT", "nowhere"] + home)
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("'nowhere' is neither a container of this home nor an archive file"))
        let size = try scratch.run(["container", "import", "x.zip", "--max-size", "lots"] + home)
        #expect(size.status == 2)
        #expect(size.standardError.contains("--max-size"))
        let folder = try scratch.run(["container", "export", "DEFAULT", "--output", "."] + home)
        #expect(folder.status == 2)
        #expect(folder.standardError.contains("it is a folder; name a file"))

        try scratch.write("home/a.bin", String(repeating: "x", count: 4096))
        #expect(try scratch.run(["container", "export", "DEFAULT", "-o", "a.zip"] + home).status == 0)
        let over = try scratch.run(["container", "import", "a.zip", "--name", "A", "--max-size", "1K"] + home)
        #expect(over.status == 2)
        #expect(over.standardError.contains("more than 1024 bytes (--max-size)"), "\(over.standardError)")
    }

    /// Imports and clones of a container of 1,500 files killed at random moments: each leaves either
    /// no container or a whole one, and a home every command still reads.
    @Test func killedImportsAndClonesLeaveNoPartialContainer() throws {
        let scratch = try Scratch()
        let home = ["--home", "home", "--no-init"]
        let payload = String(repeating: "0123456789abcdef", count: 256)
        for index in 0..<1500 {
            try scratch.write("home/files/\(index % 30)/file-\(index).txt", "\(index)\n" + payload)
        }
        #expect(try scratch.run(["container", "export", "DEFAULT", "-o", "big.zip"] + home).status == 0)
        let started = Date()
        #expect(try scratch.run(["container", "import", "big.zip", "--name", "Timing"] + home).status == 0)
        let duration = Date().timeIntervalSince(started)
        #expect(try scratch.run(["container", "delete", "Timing"] + home).status == 0)

        var random = SeededRandom(seed: 20261124)
        var whole = 0, none = 0, caughtMidCopy = 0
        let trash = scratch.url.appendingPathComponent("home/.envscript-containers/trash").path
        for round in 0..<12 {
            let name = "Killed \(round)"
            let arguments = round.isMultiple(of: 2)
                ? ["container", "import", "big.zip", "--name", name]
                : ["container", "clone", "DEFAULT", name]
            let process = try EnvScriptProcess.start(arguments + home, in: scratch.url)
            if round < 4 {
                // The first rounds die once the copy is staged, however loaded the machine is.
                let staged = Date().addingTimeInterval(60)
                while ((try? FileManager.default.contentsOfDirectory(atPath: trash)) ?? []).isEmpty && Date() < staged {
                    usleep(1_000)
                }
            } else {
                usleep(UInt32(Double.random(in: duration * 0.2...duration * 1.2, using: &random) * 1_000_000))
            }
            process.send(SIGKILL)
            process.wait()
            if !((try? FileManager.default.contentsOfDirectory(atPath: trash)) ?? []).isEmpty { caughtMidCopy += 1 }

            let list = try scratch.run(["container", "list", "--json"] + home)
            #expect(list.status == 0, "\(list.standardError)")
            let records = try #require(ContainerListJSON(list.standardOutput), "\(list.standardOutput)").containers
            if records.contains(where: { $0["name"] as? String == name }) {
                let diff = try scratch.run(["container", "diff", "big.zip", name] + home)
                #expect(diff.standardOutput.hasPrefix("no differences"), "round \(round): \(diff.standardOutput.prefix(400))")
                whole += 1
            } else {
                none += 1
            }
        }
        // The next change of the home clears whatever a killed copy staged.
        #expect(try scratch.run(["container", "create", "After"] + home).status == 0)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: trash)) ?? []).isEmpty)
        #expect(whole + none == 12)
        #expect(caughtMidCopy > 0, "at least one kill landed while a copy was staged")
        print("killed copies: \(whole) whole, \(none) absent, \(caughtMidCopy) caught with a copy staged")
    }
}
