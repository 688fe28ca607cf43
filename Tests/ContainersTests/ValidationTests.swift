import Foundation
import Testing
@testable import Containers

@Suite struct ValidationTests {
    private func rejection(_ name: String, in containers: AppContainer) -> String? {
        do {
            try containers.createNewContainer(name: name)
            return nil
        } catch let error as ContainerError {
            guard error.code == .invalidName else { return "wrong error: \(error)" }
            return error.description
        } catch {
            return "wrong error: \(error)"
        }
    }

    @Test func badNamesAreRejectedWithTheReason() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        #expect(rejection("", in: containers)?.contains("at least one character") == true)
        #expect(rejection(String(repeating: "x", count: 256), in: containers)?.contains("at most 255 characters, this one has 256") == true)
        #expect(rejection("line\nbreak", in: containers)?.contains("U+000A") == true)
        #expect(rejection("tab\there", in: containers)?.contains("control characters") == true)
        #expect(rejection("nul\u{0}", in: containers)?.contains("U+0000") == true)
        #expect(rejection("del\u{7F}", in: containers)?.contains("U+007F") == true)
        #expect(rejection(UUID().uuidString, in: containers)?.contains("may not be a UUID") == true)
        #expect(try containers.containers.count == 1, "nothing was created")
    }

    @Test func blankNamesAndNamesWithSpaceAtAnEndAreRefused() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        for blank in [" ", "   ", "\u{3000}", " \u{A0} "] {
            #expect(rejection(blank, in: containers)?.contains("a name must have a visible character, not only white space") == true, "\(blank.debugDescription)")
        }
        for padded in [" x ", " x", "x ", "Debug\u{3000}"] {
            #expect(rejection(padded, in: containers)?.contains("may not begin or end with white space") == true, "\(padded.debugDescription)")
        }
        #expect(rejection(" Debug ", in: containers)?.contains("did you mean 'Debug'?") == true)
        #expect(try containers.containers.count == 1, "nothing was created")
    }

    @Test func replacementCharactersSeparatorsAndNoncharactersAreRefused() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        // What bytes that were not UTF-8 become on the way into a String.
        let repaired = String(decoding: [0x61, 0xFF, 0xFE, 0x62] as [UInt8], as: UTF8.self)
        #expect(rejection(repaired, in: containers)?.contains("U+FFFD, which stands for bytes that were not valid UTF-8") == true)
        #expect(rejection("line\u{2028}separator", in: containers)?.contains("U+2028") == true)
        #expect(rejection("para\u{2029}", in: containers)?.contains("U+2029") == true)
        #expect(rejection("non\u{FFFF}character", in: containers)?.contains("U+FFFF") == true)
        #expect(rejection("c1\u{85}", in: containers)?.contains("U+0085") == true)
        #expect(try containers.containers.count == 1, "nothing was created")
    }

    @Test func unusualButValidNamesAreAcceptedAndStayInsideTheHome() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let names = [
            String(repeating: "é", count: 255), "../../escape", "/absolute", "with/slash", "inner  spaces",
            "日本語", "👩‍👩‍👧", ".", "..", "e\u{301}", "zero\u{200B}width",
        ]
        for name in names {
            let created = try containers.createNewContainer(name: name)
            #expect(created.name == name)
            try containers.activate(container: created)
        }
        #expect(try containers.containers.map(\.name) == ["DEFAULT"] + names)
        let parent = home.url.deletingLastPathComponent().path
        #expect(!FileManager.default.fileExists(atPath: parent + "/escape"))
        #expect(!FileManager.default.fileExists(atPath: "/absolute"))
    }

    @Test func namesAreUnique() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        try containers.createNewContainer(name: "QA")
        #expect {
            try containers.createNewContainer(name: "QA")
        } throws: { error in
            guard case .duplicateName("QA")? = (error as? ContainerError)?.reason else { return false }
            return "\(error)" == "a container named 'QA' already exists in this home; choose another name"
        }
        #expect(throws: ContainerError.self) { try containers.createNewContainer(name: "DEFAULT") }
    }

    @Test func namesDifferingOnlyByCaseAreRefused() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let dup = try containers.createNewContainer(name: "Dup")
        let street = try containers.createNewContainer(name: "Straße")
        func refusal(_ name: String, _ operation: (String) throws -> Void) -> String? {
            do {
                try operation(name)
                return nil
            } catch let error as ContainerError {
                guard case .nameDiffersOnlyByCase(name, let existing) = error.reason else { return "wrong error: \(error)" }
                return existing
            } catch {
                return "wrong error: \(error)"
            }
        }
        for (name, existing) in [("default", "DEFAULT"), ("Default", "DEFAULT"), ("dup", "Dup"), ("DUP", "Dup"), ("STRASSE", "Straße")] {
            #expect(refusal(name, { try containers.createNewContainer(name: $0) }) == existing, "create \(name)")
            #expect(refusal(name, { try containers.clone(container: dup, name: $0) }) == existing, "clone as \(name)")
            #expect(refusal(name, { try containers.createContainer(name: $0) { _ in } }) == existing, "import as \(name)")
        }
        #expect(refusal("DUP", { try containers.updateInfo(container: street, name: $0) }) == "Dup")
        #expect(try containers.containers.map(\.name) == ["DEFAULT", "Dup", "Straße"])
        #expect {
            try containers.createNewContainer(name: "default")
        } throws: { error in
            "\(error)" == "the name 'default' differs only by case from the container 'DEFAULT' of this home, and names must differ by more than case; choose another name"
        }
        // A container may change the case of its own name.
        #expect(try containers.updateInfo(container: dup, name: "DUP").name == "DUP")
        #expect(try containers.resolve("DUP").uuid == dup.uuid)
    }

    @Test func badUUIDsAreRejectedWithTheText() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let operations: [(String, (String) throws -> Void)] = [
            ("activate", { try containers.activateContainer(uuid: $0) }),
            ("delete", { try containers.deleteContainer(uuid: $0) }),
            ("clean", { try containers.cleanContainer(uuid: $0) }),
            ("lookup", { _ = try containers.container(uuid: $0) }),
        ]
        for (label, operation) in operations {
            for text in ["", "not-a-uuid", "0000", "00000000-0000-0000-0000-00000000000G"] {
                #expect("\(label) \(text)", performing: { try operation(text) }, throws: { error in
                    guard case .invalidUUID(text)? = (error as? ContainerError)?.reason else { return false }
                    return "\(error)".contains("'\(text)' is not a UUID")
                })
            }
        }
    }

    @Test func unknownContainersAreNotFound() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let missing = UUID()
        for operation in [
            { try containers.activateContainer(uuid: missing) },
            { try containers.deleteContainer(uuid: missing) },
            { try containers.cleanContainer(uuid: missing) },
        ] as [() throws -> Void] {
            #expect(performing: operation, throws: { error in
                guard case .notFound(missing.uuidString)? = (error as? ContainerError)?.reason else { return false }
                return "\(error)".contains("list the containers")
            })
        }
        #expect(throws: ContainerError.self) { try containers.resolve("nobody") }
    }

    @Test func aMissingHomeIsReported() {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString)")
        #expect {
            _ = try AppContainer(home: path)
        } throws: { error in
            guard (error as? ContainerError)?.code == .homeNotFound else { return false }
            return "\(error)".contains("create it first")
        }
    }

    @Test func corruptBookkeepingIsReportedNotGuessedAround() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let b = try containers.createNewContainer(name: "B")
        let layout = HomeLayout(home: home.url)

        try Data("{not json".utf8).write(to: URL(fileURLWithPath: layout.metadata(b.uuid)))
        #expect {
            _ = try containers.containers
        } throws: { error in
            guard case .corruptMetadata(let path, _)? = (error as? ContainerError)?.reason else { return false }
            return path == layout.metadata(b.uuid) && "\(error)".contains("fix it by hand")
        }

        try FileManager.default.removeItem(atPath: layout.metadata(b.uuid))
        #expect(throws: ContainerError.self) { _ = try containers.containers }

        try FileManager.default.removeItem(atPath: layout.containerFolder(b.uuid))
        try FileManager.default.createDirectory(atPath: layout.containerFolder(b.uuid) + "/data", withIntermediateDirectories: true)
        try containers.store.write(b)
        try FileManager.default.removeItem(atPath: layout.state)
        #expect {
            _ = try containers.activeContainer
        } throws: { error in
            "\(error)".contains("the active container is unknown")
        }
    }

    /// Found by the bookkeeping fuzz target: a date with a signed or short year was read, then written back
    /// as another text, so a record did not survive its own write; a fraction of a hundred digits crashed
    /// the process (in ICU, under ISO8601DateFormatter), so one such record stopped every command on the home.
    @Test(arguments: [
        "-926-11-24T11:30:00.000Z", "926-11-24T11:30:00.000Z", "0000-01-01T00:00:00.000Z", "+2026-11-24T11:30:00Z",
        "1970-01-01T00:00:00." + String(repeating: "9", count: 130) + "000Z",
    ])
    func datesOutsideFourDigitYearsAreRefusedByName(text: String) throws {
        let record = """
            {"activatedCount": 1, "createdAt": "2026-11-24T10:00:00.123Z", "lastActivatedAt": "\(text)",
             "name": "B", "uuid": "\(Container.defaultUUID.uuidString)"}
            """
        #expect {
            _ = try Container.decodeRecord(Data(record.utf8), path: "/h/container.json", folder: Container.defaultUUID)
        } throws: { error in
            guard case .corruptMetadata(let path, let reason)? = (error as? ContainerError)?.reason else { return false }
            return path == "/h/container.json" && reason.contains("'lastActivatedAt' is not an ISO 8601 date from the years 0001 to 9999")
        }
        let good = record.replacingOccurrences(of: text, with: "0001-01-01T00:00:00.000Z")
        let read = try Container.decodeRecord(Data(good.utf8), path: "/h/container.json", folder: Container.defaultUUID)
        #expect(Timestamp.encode(try #require(read.lastActivatedAt)) == "0001-01-01T00:00:00.000Z")
    }
}
