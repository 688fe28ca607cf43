/// An error raised by Lua code, or by the bridge on its way in or out of Lua.
public struct LuaError: Error, CustomStringConvertible, Equatable {
    /// What kind of failure this is.
    public enum Kind: String, Sendable, Equatable {
        /// A syntax error while loading a chunk.
        case syntax
        /// An error raised while running (`error()`, a failed operation, a host function's error).
        case runtime
        /// The state's memory cap was reached.
        case memoryLimit
        /// The instruction budget of one call into Lua ran out.
        case instructionLimit
        /// A wall-clock limit (``LuaState/withTimeLimit(seconds:reason:_:)``) passed.
        case timeLimit
        /// The error handler itself failed.
        case errorHandler
        /// The state was closed before the call.
        case stateClosed
        /// The state was asked to close while a call into it was running.
        case stateInUse
        /// A value did not have the type Swift asked for.
        case typeMismatch
    }

    /// The kind of failure.
    public var kind: Kind
    /// The message as Lua gives it, usually prefixed with `chunk:line:`.
    public var message: String
    /// The Lua stack traceback at the point of the error, when one was taken.
    public var traceback: String?

    /// Creates an error.
    public init(_ kind: Kind, message: String, traceback: String? = nil) {
        self.kind = kind
        self.message = message
        self.traceback = traceback
    }

    /// The chunk name and line where the error was raised, parsed from the message's `chunk:line:` prefix.
    public var location: (chunk: String, line: Int)? {
        // "path/file.lua:12: message" or "[string \"...\"]:3: message"
        var search = message[...]
        while let colon = search.firstIndex(of: ":") {
            let afterColon = message.index(after: colon)
            let digits = message[afterColon...].prefix(while: \.isNumber)
            if !digits.isEmpty, message[digits.endIndex...].hasPrefix(":"), let line = Int(digits) {
                return (String(message[..<colon]), line)
            }
            search = message[afterColon...]
        }
        return nil
    }

    public var description: String {
        guard let traceback, !traceback.isEmpty else { return message }
        return message + "\n" + traceback
    }

    public static func == (lhs: LuaError, rhs: LuaError) -> Bool {
        lhs.kind == rhs.kind && lhs.message == rhs.message && lhs.traceback == rhs.traceback
    }
}

/// A bad argument given to a Swift function from Lua; raised in `luaL_argerror` style:
/// `bad argument #2 to 'tweak.set' (number expected, got table)`.
public struct LuaArgumentError: Error, CustomStringConvertible {
    /// The 1-based argument position.
    package var position: Int32
    /// The function's name as scripts call it (`tweak.set`).
    public var function: String
    /// What is wrong, e.g. `number expected, got table`.
    public var problem: String

    /// Creates an argument error.
    public init(position: Int32, function: String, problem: String) {
        self.position = position
        self.function = function
        self.problem = problem
    }

    public var description: String { "bad argument #\(position) to '\(function)' (\(problem))" }
}

/// An error a Swift function raises in Lua with a plain message; the bridge prefixes the calling line.
package struct LuaScriptError: Error, CustomStringConvertible {
    /// The message.
    package var message: String
    /// Creates an error with a message.
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
