/// Arguments must be UTF-8 text: Swift reads each one as UTF-8 and puts U+FFFD where its bytes are not,
/// so a name given in another encoding would be stored as `��` and never be found again.
enum ArgumentEncoding {
    /// A usage error naming the first argument whose bytes are not UTF-8, or nil when all of them are.
    static func failureForArgumentNotUTF8() -> CommandFailure? {
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index], String(validatingCString: pointer) == nil else { continue }
            return .usage(
                "argument \(index) ('\(String(cString: pointer))', shown with � for the bytes in question) is not valid UTF-8; "
                    + "envscript takes its arguments as UTF-8 text: set the terminal and shell to UTF-8 (a locale such as C.UTF-8) and type it again")
        }
        return nil
    }
}
