import AppState
#if Sharing
import ContainerSharing
#endif
import Containers
import Foundation
import Hummingbird
import LuaBridge
import Tweaks

extension ControlError {
    /// The answer for an error thrown by the engines, Lua or the request handling.
    ///
    /// Messages are the errors' own descriptions, which name the container, tweak, key or file involved
    /// and say what to do; Lua errors give their message without the traceback.
    package init(describing error: any Error) {
        switch error {
        case let error as ControlError: self = error
        case let error as ContainerError: self = Self.mapping(error)
        case let error as TweakError: self = Self.mapping(error)
        case let error as AppStateError: self = Self.mapping(error)
        #if Sharing
        case let error as ArchiveError:
            // A damaged or crafted archive: what the client sent is wrong.
            self.init(.badRequest, error.description)
        #endif
        case let error as LuaError: self.init(.failed, error.message)
        case let error as any HTTPResponseError where error.status == .contentTooLarge:
            self.init(.badRequest, "the request body is too large; the control API takes at most \(ControlRequestBody.maximumSize / 1024) KiB")
        case let error as any HTTPResponseError where (400..<500).contains(error.status.code):
            self.init(.badRequest, "\(error)")
        case is CancellationError: self.init(.failed, "the request was cancelled before it finished")
        default: self.init(.failed, Self.text(of: error))
        }
    }

    private static func mapping(_ error: ContainerError) -> ControlError {
        switch error.reason {
        case .notFound: return ControlError(.notFound, error.description)
        // The request is well formed but the name is taken in this home: a conflict with its state.
        case .duplicateName, .nameDiffersOnlyByCase: return ControlError(.conflict, error.description)
        case .invalidName, .invalidUUID: return ControlError(.badRequest, error.description)
        case .cannotDeleteDefault, .cannotRenameDefault, .conflict, .reentrantOperation, .switchWhileAnnouncing:
            return ControlError(.conflict, error.description)
        case .switchCancelled(let underlying):
            return ControlError(.refused, "the container switch was cancelled, nothing on disk changed: \(text(of: underlying))")
        default: return ControlError(.failed, error.description)
        }
    }

    private static func mapping(_ error: TweakError) -> ControlError {
        switch error.code {
        case .notFound: return ControlError(.notFound, error.description)
        // A value of another type than the flag's, a provider the stack lacks: what the client sent is wrong.
        case .unknownProvider, .providerNotMutable, .typeMismatch, .typeRefused: return ControlError(.badRequest, error.description)
        case .noMutableProvider: return ControlError(.conflict, error.description)
        default: return ControlError(.failed, error.description)
        }
    }

    private static func mapping(_ error: AppStateError) -> ControlError {
        switch error.code {
        case .unknownKey: return ControlError(.notFound, error.description)
        case .invalidKey, .kindMismatch, .typeMismatch, .encodingFailed: return ControlError(.badRequest, error.description)
        default: return ControlError(.failed, error.description)
        }
    }

    /// The error's message; for a Lua error, without the traceback (it names the script's frames, which
    /// help at a terminal but not in an HTTP answer).
    private static func text(of error: any Error) -> String {
        if let lua = error as? LuaError { return lua.message }
        return "\(error)"
    }
}
