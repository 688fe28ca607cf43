/// Why a panel could not start.
///
/// Tell failures apart by their ``code``, compared with the static members of ``Code``
/// (`error.code == .cannotListen`); a release may add codes, so a `switch` over them needs a `default`.
public struct PanelError: Error, CustomStringConvertible, Sendable {
    /// The failure with its details. `package`: the modules of this package match on it; an app uses
    /// ``code`` and ``message``.
    package let reason: Reason

    /// The error for `reason`.
    package init(_ reason: Reason) {
        self.reason = reason
    }

    /// What kind of failure it is.
    public var code: Code {
        switch reason {
        case .cannotListen: .cannotListen
        }
    }

    /// A message that says what failed and what to do about it.
    public var message: String {
        switch reason {
        case .cannotListen(let address, let reason): "the panel cannot listen on \(address): \(reason)"
        }
    }

    /// Same as ``message``.
    public var description: String { message }
}
