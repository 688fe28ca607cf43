import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Why a file operation failed, in plain words for a message a person reads ("no such file or
/// folder", "permission denied", "it is a folder", "no space left on the device"), instead of
/// Foundation's `The operation could not be completed. (NSCocoaErrorDomain error 512.)`.
///
/// Every module that reads files words its errors with it: the stores, the tweak files, the scripts
/// (`EnvScript` shows it under the same name).
package enum FileErrorReason {
    /// The reason for `error`: the POSIX error underneath a Foundation error when there is one, else
    /// the Foundation error's code, else the error's own description.
    package static func describe(_ error: any Error) -> String {
        let error = error as NSError
        if let posix = posixCode(of: error) { return describe(errno: posix) }
        if error.domain == NSCocoaErrorDomain, let reason = cocoaReason(error.code) { return reason }
        let text = error.localizedDescription
        let generic = "The operation could not be completed."
        if text.hasPrefix(generic) {
            let rest = text.dropFirst(generic.count).trimmingCharacters(in: .whitespaces)
            if !rest.isEmpty && !rest.contains("ErrorDomain") { return rest }
            return "the operation failed (\(error.domain) \(error.code))"
        }
        return text
    }

    /// The reason for the POSIX error number `code`.
    package static func describe(errno code: Int32) -> String {
        switch code {
        case ENOENT: "no such file or folder"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a folder"
        case ENOTDIR: "a part of the path is not a folder"
        case ENOSPC: "no space left on the device"
        case EDQUOT: "the disk quota is used up"
        case EROFS: "the file system is read-only"
        case EEXIST: "it already exists"
        case ENAMETOOLONG: "the name is too long"
        case EFBIG: "the file would be too large"
        case EPIPE: "the reader went away (broken pipe)"
        default: String(cString: strerror(code)).lowercasedFirstLetter
        }
    }

    private static func posixCode(of error: NSError) -> Int32? {
        if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
        // On Linux the underlying error may be kept as a Swift error (POSIXError) rather than an NSError.
        guard let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Error else { return nil }
        return posixCode(of: underlying as NSError)
    }

    private static func cocoaReason(_ code: Int) -> String? {
        switch CocoaError.Code(rawValue: code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: "no such file or folder"
        case .fileReadNoPermission, .fileWriteNoPermission: "permission denied"
        case .fileWriteOutOfSpace: "no space left on the device"
        case .fileWriteVolumeReadOnly: "the file system is read-only"
        case .fileWriteFileExists: "it already exists"
        case .fileWriteInvalidFileName, .fileReadInvalidFileName: "the name is not valid"
        case .fileReadTooLarge: "the file is too large"
        case .fileReadInapplicableStringEncoding, .fileReadUnknownStringEncoding: "it is not UTF-8 text"
        case .fileReadCorruptFile: "its contents cannot be read"
        case .fileLocking: "it is locked"
        default: nil
        }
    }
}

private extension String {
    var lowercasedFirstLetter: String { prefix(1).lowercased() + dropFirst() }
}
