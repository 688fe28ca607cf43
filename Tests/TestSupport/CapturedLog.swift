import Locking
package import Logging

/// Log lines kept in memory: hand ``logger`` to the code under test, then read ``lines``.
package final class CapturedLog: Sendable {
    private let captured = Locked<[String]>([])

    package init() {}

    /// A logger whose every line, at any level, lands in ``lines`` as `LEVEL message`.
    package var logger: Logger {
        var logger = Logger(label: "captured") { _ in Handler(log: self) }
        logger.logLevel = .trace
        return logger
    }

    /// The lines logged so far.
    package var lines: [String] { captured.withLock { $0 } }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.captured.withLock { $0.append("\(event.level) \(event.message)") }
        }
    }
}
