
/// Why an attached host did not take its part in a change: the change was cancelled.
///
/// Tell failures apart by their ``code``, compared with the static members of ``Code``
/// (`error.code == .refused`); a release may add codes, so a `switch` over them needs a `default`.
package struct ParticipationError: Error, CustomStringConvertible, Sendable {
    /// The failure with its details. `package`: the modules of this package match on it; an app uses
    /// ``code`` and ``message``.
    package let reason: Reason

    /// The error for `reason`.
    package init(_ reason: Reason) {
        self.reason = reason
    }

    /// What kind of failure it is.
    package var code: Code {
        switch reason {
        case .refused: .refused
        case .noAnswer: .noAnswer
        case .unreachable: .unreachable
        case .cannotTakePart: .cannotTakePart
        }
    }

    /// A message that says what failed and what to do about it.
    package var message: String {
        switch reason {
        case .refused(let pid, let message):
            return "the running host pid \(pid) refused: \(message)"
        case .noAnswer(let pid, let seconds):
            return "the running host pid \(pid) did not answer within \(Self.format(seconds)) s (is it stopped or stuck in a hook?); allow it more time, or stop it"
        case .unreachable(let pid, let socket, let reason):
            return "the running host pid \(pid) could not be reached at '\(socket)': \(reason)"
        case .cannotTakePart(let pid, let program):
            return "the running application \(program) (pid \(pid)) cannot take part in a change of the home: it was built without EnvScript's control part (the Control trait), so the change would move its data under it; quit it first, or build it with the Control trait"
        }
    }

    /// Same as ``message``.
    package var description: String { message }


    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
