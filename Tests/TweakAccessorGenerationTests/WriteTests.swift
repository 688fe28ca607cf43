import Foundation
import Testing
import TweakAccessorGeneration
import TestSupport

@Suite struct WriteTests {
    func modificationDate(_ url: URL) throws -> Date {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
    }

    /// Sets the file's modification time well in the past, so a rewrite would be seen at any clock resolution.
    func age(_ url: URL) throws -> Date {
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: url.path)
        return try modificationDate(url)
    }

    @Test func writesBothFilesIntoANewFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("deep/Generated", isDirectory: true)
        let generated = try Generate.accessors(#"{"f": {"v": {"Value": true}}}"#, name: "Flags")
        let results = try generated.write(to: output)
        #expect(results.map(\.changed) == [true, true])
        #expect(results.map(\.url.lastPathComponent) == ["Flags.swift", "Flags+Constants.swift"])
        #expect(try String(contentsOf: output.appendingPathComponent("Flags.swift"), encoding: .utf8)
            == generated.accessor.contents)
        #expect(try String(contentsOf: output.appendingPathComponent("Flags+Constants.swift"), encoding: .utf8)
            == generated.constants.contents)
    }

    @Test func rewritesOnlyFilesWhoseContentsChange() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("Generated", isDirectory: true)
        let accessorURL = output.appendingPathComponent("Flags.swift")
        let constantsURL = output.appendingPathComponent("Flags+Constants.swift")
        try Generate.accessors(#"{"f": {"v": {"Value": true}}}"#, name: "Flags").write(to: output)
        let accessorDate = try age(accessorURL)
        let constantsDate = try age(constantsURL)

        // Same contents: nothing is written, the times stay.
        let again = try Generate.accessors(#"{"f": {"v": {"Value": true}}}"#, name: "Flags").write(to: output)
        #expect(again.map(\.changed) == [false, false])
        #expect(try modificationDate(accessorURL) == accessorDate)
        #expect(try modificationDate(constantsURL) == constantsDate)

        // A new default changes the accessor only: the constants keep their time.
        let changed = try Generate.accessors(#"{"f": {"v": {"Value": false}}}"#, name: "Flags").write(to: output)
        #expect(changed.map(\.changed) == [true, false])
        #expect(try modificationDate(accessorURL) > accessorDate)
        #expect(try modificationDate(constantsURL) == constantsDate)
        #expect(try String(contentsOf: accessorURL, encoding: .utf8).contains("default: false"))
    }

    @Test func aFileEditedByHandIsRestored() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let generated = try Generate.accessors(#"{"f": {"v": {"Value": 1}}}"#, name: "Flags")
        try generated.write(to: folder.url)
        try folder.write("// edited\n", to: "Flags.swift")
        let results = try generated.write(to: folder.url)
        #expect(results.map(\.changed) == [true, false])
        #expect(try String(contentsOf: folder.url.appendingPathComponent("Flags.swift"), encoding: .utf8)
            == generated.accessor.contents)
    }

    @Test func runReadsWritesAndReportsPerFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tweaks = try folder.write(#"{"f": {"v": {"Value": "x"}}}"#, to: "Tweaks.json")
        let config = try folder.write(#"{"accessorName": "Flags"}"#, to: "config.json")
        let output = folder.url.appendingPathComponent("out")
        let first = try AccessorGenerator.run(tweaksFile: tweaks, configurationFile: config, outputDirectory: output)
        #expect(first.map(\.changed) == [true, true])
        let second = try AccessorGenerator.run(tweaksFile: tweaks, configurationFile: config, outputDirectory: output)
        #expect(second.map(\.changed) == [false, false])
    }

    @Test func anUnwritableFolderIsAClearError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let blocker = try folder.write("not a folder", to: "blocker")
        let generated = try Generate.accessors("{}", name: "Flags")
        #expect {
            try generated.write(to: blocker.appendingPathComponent("out"))
        } throws: { error in
            guard let error = error as? AccessorGenerationError else { return false }
            return error.kind == .writeFailed && error.file.hasSuffix("blocker/out/Flags.swift")
                && error.description.contains("error: cannot write")
        }
    }
}
