import Foundation
import Synchronization
import Testing
@testable import AppState
import TestSupport

@Suite struct FileStateTests {
    struct Settings: Codable, Equatable, Sendable {
        var ratio: Double
        var count: Int
        var label: String
    }

    @Test func theFileIsPlainJSONOfTheValue() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let settings = try app.fileState("settings", initial: Settings(ratio: 0, count: 0, label: ""))
        try settings.setValue(Settings(ratio: 1.0, count: 42, label: "a/b"))

        #expect(settings.fileURL.path.hasSuffix("Library/Application Support/EnvScript/State/settings.json"))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: settings.fileURL)) as? [String: Any]
        #expect(json?["count"] as? Int == 42)
        #expect(json?["label"] as? String == "a/b")
        #expect(String(decoding: try Data(contentsOf: settings.fileURL), as: UTF8.self).contains("\"a/b\""))
    }

    @Test func numbersAndStringsComeBackAsTheyWere() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        try app.fileState("double", initial: 0.0).setValue(1.0)
        try app.fileState("int", initial: 0).setValue(Int.max)
        try app.fileState("digits", initial: "").setValue("0042")
        try app.fileState("optional", initial: Optional<Int>.some(1)).setValue(nil)

        let fresh = Application(home: folder.url, appID: "app")
        #expect(try fresh.fileState("double", initial: 0.0).read() == 1.0)
        #expect(try fresh.fileState("int", initial: 0).read() == Int.max)
        #expect(try fresh.fileState("digits", initial: "").read() == "0042")
        #expect(try fresh.fileState("optional", initial: Optional<Int>.some(1)).read() == nil)
        #expect(String(decoding: try Data(contentsOf: fresh.fileState("digits", initial: "").fileURL), as: UTF8.self) == "\"0042\"")
    }

    @Test func aFileOfAnotherShapeFailsNamingTheFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        try app.fileState("count", initial: "").setValue("many")
        let fresh = Application(home: folder.url, appID: "app")
        let count = try fresh.fileState("count", initial: 0)
        let error = #expect(throws: AppStateError.self) { _ = try count.read() }
        #expect(error?.codeName == "decodingFailed")
        #expect(error?.description.contains(count.fileURL.path) == true)
    }

    @Test func keysThatAreNotFileNamesStayInTheFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let sneaky = try app.fileState("../../escape", initial: 0)
        try sneaky.setValue(1)
        #expect(sneaky.fileURL.deletingLastPathComponent().standardizedFileURL == app.fileStateFolder.standardizedFileURL)
        #expect(thrownCase { _ = try app.fileState(String(repeating: "k", count: 300), initial: 0) } == "invalidKey")
    }

    @Test func aConcurrentReaderNeverSeesAHalfWrittenFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let first = (0..<20_000).map { "first value line \($0)" }
        let second = (0..<5_000).map { "second \($0)" }
        let state = try app.fileState("large", initial: [String]())
        try state.setValue(first)
        let url = state.fileURL

        // The reader runs on a thread of its own, so it reads while the writes happen whatever the
        // test runner's task pool is busy with.
        let stop = Atomic<Bool>(false)
        let reads = Atomic<Int>(0)
        let torn = Atomic<Int>(0)
        let finished = DispatchSemaphore(value: 0)
        let reader = Thread {
            while !stop.load(ordering: .relaxed) {
                let decoded = (try? Data(contentsOf: url)).flatMap { try? JSONDecoder().decode([String].self, from: $0) }
                if decoded != first && decoded != second { torn.add(1, ordering: .relaxed) }
                reads.add(1, ordering: .relaxed)
            }
            finished.signal()
        }
        reader.start()
        var round = 0
        // Write until the reader has overlapped many writes (bounded, in case it is starved).
        while round < 30 || (reads.load(ordering: .relaxed) < 50 && round < 2_000) {
            try state.setValue(round.isMultiple(of: 2) ? second : first)
            round += 1
        }
        stop.store(true, ordering: .relaxed)
        finished.wait()

        #expect(reads.load(ordering: .relaxed) > 0)
        #expect(torn.load(ordering: .relaxed) == 0)
        // No temporary file is left behind.
        let names = try FileManager.default.contentsOfDirectory(atPath: app.fileStateFolder.path)
        #expect(names == ["large.json"])
    }
}
