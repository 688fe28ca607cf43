/// Why a home cannot be opened as a given application. Each message names the home, the identifiers
/// and the record, and says what to do.
///
/// Tell failures apart by their ``code``, compared with the static members of ``Code``
/// (`error.code == .mismatch`); a release may add codes, so a `switch` over them needs a `default`.
package struct ApplicationIDError: Error, Sendable, CustomStringConvertible, Equatable {
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
        case .mismatch: .mismatch
        case .invalid: .invalid
        }
    }

    /// A message that says what failed and what to do about it.
    package var message: String {
        switch reason {
        case .mismatch(let home, let recorded, let requested, let record):
            return "the home '\(home)' belongs to the application '\(recorded)' (recorded in '\(record)'), not to '\(requested)'; open it as '\(recorded)' to use its files, or use another home; if the home really belongs to '\(requested)', delete '\(record)' and open it again"
        case .invalid(let identifier, let reason):
            return "invalid application identifier '\(identifier.debugDescription.dropFirst().dropLast())': it \(reason); use a name like com.example.app"
        }
    }

    /// Same as ``message``.
    package var description: String { message }
}
