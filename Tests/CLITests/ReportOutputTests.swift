import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Where `envscript run` writes its report: a report that cannot be written is an error (exit 2) naming
/// the output and the reason, a device is written in place and never replaced, and `--output` is
/// checked before anything runs.
@Suite(.timeLimit(.minutes(15))) struct ReportOutputTests {
    static let passing = "print('loaded')\ndescribe('math', function() it('adds', function() assert.equals(4, 2 + 2) end) end)\n"

    /// A device that refuses every write with ENOSPC, as `/dev/full` does: a node of its own in the
    /// scratch folder when this process may make one (so a binary that replaced the node would harm
    /// nothing), else `/dev/full` itself.
    static func fullDevice(in scratch: Scratch) -> String {
        let path = scratch.url.appendingPathComponent("full").path
        // Major 1, minor 7: Linux's "full" device (dev_t encodes it as 0x107).
        if mknod(path, mode_t(S_IFCHR) | 0o666, dev_t(0x107)) == 0 { return path }
        return "/dev/full"
    }

    @Test func aReportFileThatCannotBeWrittenExitsTwoNamingItAndWhy() throws {
        let scratch = try Scratch()
        try scratch.write("math.lua", Self.passing)
        let device = Self.fullDevice(in: scratch)
        for format in ["junit", "tap", "pretty"] {
            let outcome = try scratch.run("run", "--format", format, "--output", device, "math.lua")
            #expect(outcome.status == 2, "\(format): \(outcome.standardError)")
            #expect(outcome.standardError.contains("cannot write the report to --output \(device): no space left on the device"), "\(format)")
        }
        var info = stat()
        #expect(stat(device, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "the device is written in place, never replaced")
    }

    @Test func aReportOnAFullStandardOutputExitsTwo() throws {
        let scratch = try Scratch()
        try scratch.write("math.lua", Self.passing)
        let outcome = try scratch.run(["run", "--format", "tap", "math.lua"], standardOutputTo: "/dev/full")
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("cannot write the report to standard output: no space left on the device"))
    }

    @Test func outputNamingAFolderOrAMissingFolderIsRefusedBeforeAnythingRuns() throws {
        let scratch = try Scratch()
        try scratch.write("math.lua", Self.passing)
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("reports"), withIntermediateDirectories: true)

        let folder = try scratch.run("run", "--output", "reports", "math.lua")
        #expect(folder.status == 2)
        #expect(folder.standardError.contains("--output reports is a folder; give the path of a file, such as reports/report.xml"))
        #expect(!folder.standardError.contains("NSCocoaErrorDomain"))
        #expect(folder.standardOutput.isEmpty, "nothing ran")

        let missing = try scratch.run("run", "--output", "nowhere/report.xml", "math.lua")
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("--output nowhere/report.xml: 'nowhere' does not exist"))
        #expect(missing.standardOutput.isEmpty)

        let bare = try scratch.run("run", "--format", "tap", "--output", "r", "math.lua")
        #expect(bare.status == 0, "a one-letter file name: \(bare.standardError)")
        let written = try String(contentsOf: scratch.url.appendingPathComponent("r"), encoding: .utf8)
        #expect(written == "TAP version 13\nok 1 - math adds\n1..1\n# 1 passed, 0 failed\n")
    }

    @Test func standardOutputAsAPathKeepsWhatWasPrintedBefore() throws {
        let scratch = try Scratch()
        try scratch.write("math.lua", Self.passing)
        let outcome = try scratch.run("run", "--format", "tap", "--output", "/dev/stdout", "math.lua")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput == "loaded\nTAP version 13\nok 1 - math adds\n1..1\n# 1 passed, 0 failed\n")
    }
}
