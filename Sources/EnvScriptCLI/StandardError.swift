import Foundation

/// Writes a line to standard error, after flushing standard output so the two stay in order.
func printError(_ text: String) {
    flushStandardOutput()
    FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
}

/// Flushes what `print` (and Lua's `print`) buffered, before the process exits or writes to standard error.
func flushStandardOutput() {
    fflush(nil)
}
