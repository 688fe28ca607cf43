import Foundation
import Locking
import Scenarios

/// What the worker processes of `envscript run --jobs N` and the run that started them say to each
/// other: one JSON object a line, the run writing to a worker's standard input, the worker answering
/// on its standard output (what its scripts print is captured apart, see ``OutputCapture``).
enum WorkerMessage: Codable, Equatable {
    // From the run to a worker.
    /// Run the file, the `index`-th of the run; its helper's tests first when `includingHelper`.
    case run(index: Int, file: String, includingHelper: Bool)
    /// With `--fail-fast`: a test failed in another worker, so no test starts here any more.
    case stop

    // From a worker to the run.
    /// Every file compiled and the helper loaded: ready for a file. What the start-up scripts printed
    /// comes with it (the run prints one worker's).
    case ready(output: Data, errorOutput: Data)
    /// A result of the file `index`, as it ends.
    case result(index: Int, ScenarioResult)
    /// The file `index` has run: what it printed on standard output and standard error, the tests
    /// it counted as not run, and why it stopped early, if it did.
    case finished(index: Int, output: Data, errorOutput: Data, notRun: Int, stopReason: String?)
    /// The lines counted (`--coverage`), sent once before the worker ends.
    case coverage([String: [Int: Int]])
    /// The worker cannot run anything (a file that does not compile, a helper or start-up script
    /// that fails): the run ends with this message and status.
    case fatal(message: String, status: Int32)

    /// The message as one line of JSON, newline included.
    func line() throws -> Data {
        var data = try JSONEncoder().encode(self)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Writes the message to `descriptor`, whole, one writer at a time; false when it could not (the
    /// other end has gone).
    @discardableResult
    func send(to descriptor: Int32) -> Bool {
        Self.writing.withLock { _ in writeWhole(to: descriptor) }
    }

    private static let writing = Locked(())

    private func writeWhole(to descriptor: Int32) -> Bool {
        guard let line = try? line() else { return false }
        return line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// Reads one line (without its newline).
    init(line: Data) throws {
        self = try JSONDecoder().decode(WorkerMessage.self, from: line)
    }
}

/// Reads `descriptor` to its end, passing each line (without its newline) to `line`, which answers
/// false to stop.
func readLines(from descriptor: Int32, _ line: (Data) -> Bool) {
    var buffer = LineBuffer()
    var bytes = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = read(descriptor, &bytes, bytes.count)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return }
        for each in buffer.lines(adding: Data(bytes[0..<count])) where !line(each) { return }
    }
}

/// Splits what arrives on a pipe into lines, however the reads cut it.
struct LineBuffer {
    private var pending = Data()

    /// Adds `data` and returns the lines it completes.
    mutating func lines(adding data: Data) -> [Data] {
        pending.append(data)
        var lines: [Data] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(pending[pending.startIndex..<newline])
            pending = pending[(newline + 1)...]
        }
        if pending.isEmpty { pending = Data() }
        return lines
    }
}
