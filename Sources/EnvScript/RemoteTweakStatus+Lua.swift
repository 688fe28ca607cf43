#if RemoteFlags
import Foundation
import LuaBridge
import RemoteTweaks
import Tweaks

extension RemoteTweakProvider {
    /// What `provider:status()` returns for a remote provider: `url`, `has_tweaks`, `from_kept_copy`,
    /// `etag`, `last_attempt`, `last_success` (ISO 8601 text), `last_error` and `kept_copy_error`
    /// (messages); fields without a value are nil.
    var statusLuaTable: LuaValue { Self.statusLuaTable(status, url: configuration.url) }

    /// The status table of a provider fetching `url` (an OFREP provider's is its bulk evaluation URL).
    static func statusLuaTable(_ status: Status, url: URL) -> LuaValue {
        var table = LuaTable()
        table["url"] = .string(url.absoluteString)
        table["has_tweaks"] = .boolean(status.hasTweaks)
        table["from_kept_copy"] = .boolean(status.isFromKeptCopy)
        if let etag = status.etag { table["etag"] = .string(etag) }
        if let date = status.lastAttempt { table["last_attempt"] = .string(date.formatted(.iso8601)) }
        if let date = status.lastSuccess { table["last_success"] = .string(date.formatted(.iso8601)) }
        if let error = status.lastError { table["last_error"] = .string("\(error)") }
        if let error = status.keptCopyError { table["kept_copy_error"] = .string("\(error)") }
        return .table(table)
    }
}
#endif
