/// `{"ok": true}`: the answer of an operation with nothing else to report.
struct OKPayload: Codable, Sendable {
    var ok = true
}
