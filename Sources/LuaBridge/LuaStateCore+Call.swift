public import CLua
public import CLuaSupport

extension LuaStateCore {
    /// Runs `esl_pcall` and turns a failure into a ``LuaError`` (the error value is left for the caller to pop).
    @inlinable @inline(__always)
    func protectedCall(_ thread: OpaquePointer, arguments: Int32, results: Int32, handler: Int32) throws(LuaError) {
        let status = esl_pcall(thread, arguments, results, handler)
        if status != LUA_OK { throw error(status: status, on: thread) }
    }

    /// The error for a failed status, built from the message on top of the stack.
    @usableFromInline
    func error(status: Int32, on thread: OpaquePointer) -> LuaError {
        let runtime = self.runtime.pointee
        let text: String
        switch LuaStateCore.readString(at: -1, from: thread) {
        case .string(let value): text = value
        case .bytes(let bytes): text = String(decoding: bytes, as: UTF8.self)
        default: text = "(error object is a \(String(cString: esl_typename(thread, -1))) value)"
        }
        let (message, traceback) = Self.splitTraceback(text)
        let kind: LuaError.Kind
        if runtime.instruction_exceeded != 0 {
            kind = .instructionLimit
        } else if runtime.time_exceeded != 0 || runtime.interrupted != 0 {
            kind = .timeLimit
        } else if status == LUA_ERRMEM || runtime.memory_exceeded != 0 {
            kind = .memoryLimit
            let limit = runtime.memory_limit
            let summary = limit > 0 ? "memory limit of \(Self.describe(bytes: Int(limit))) exceeded" : "not enough memory"
            return LuaError(.memoryLimit, message: message.contains("not enough memory") ? summary : "\(message) (\(summary))", traceback: traceback)
        } else if status == LUA_ERRSYNTAX {
            kind = .syntax
        } else if status == LUA_ERRERR {
            kind = .errorHandler
        } else {
            kind = .runtime
        }
        return LuaError(kind, message: message, traceback: traceback)
    }

    /// Splits what the message handler made into the message and the traceback: at the last
    /// `stack traceback:` line, since a message may hold one of its own (another program's error output).
    static func splitTraceback(_ text: String) -> (String, String?) {
        guard let range = text.range(of: "\nstack traceback:\n", options: .backwards) else { return (text, nil) }
        return (String(text[..<range.lowerBound]), String(text[text.index(after: range.lowerBound)...]))
    }

    static func describe(bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
