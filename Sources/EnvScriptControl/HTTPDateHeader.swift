package import Foundation
import Locking

/// The `Date` header of every answer (RFC 9110 §6.6.1, `Sun, 06 Nov 1994 08:49:37 GMT`), formatted once a
/// second at most and never through the process's locale (a script may call `os.setlocale`).
package final class HTTPDateHeader: Sendable {
    package init() {}

    private let cache = Locked<(second: time_t, text: String)>((-1, ""))
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The header's value for this second.
    package var now: String {
        let second = time(nil)
        return cache.withLock { cache in
            if cache.second != second { cache = (second, Self.text(of: second)) }
            return cache.text
        }
    }

    /// The header's value for `second` since the epoch.
    package static func text(of second: time_t) -> String {
        var clock = second
        var parts = tm()
        gmtime_r(&clock, &parts)
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(1900 + parts.tm_year) "
            + "\(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec)) GMT"
    }
}
