import CLuaSupport

extension LuaState {
    /// Turns line coverage on: from now on every line of a chunk loaded from a file (chunk name
    /// `@path`) counts each time it starts to run, in every coroutine, until the state closes. The
    /// counting costs a hook call per line; it is never on unless asked for.
    package func startCoverage() throws {
        try core.checkOpen()
        guard esl_coverage_start(core.mainThread) != 0 else {
            throw LuaError(.runtime, message: "not enough memory to count coverage")
        }
    }

    /// The lines counted so far: by chunk name without its `@` (a file's path as it was loaded), each
    /// line that ran with the number of times it started. Empty unless ``startCoverage()`` was called.
    package var coverage: [String: [Int: Int]] {
        guard core.isOpen else { return [:] }
        let thread = core.mainThread
        var files: [String: [Int: Int]] = [:]
        for index in 0..<esl_coverage_file_count(thread) {
            let name = String(cString: esl_coverage_file_name(thread, index))
            var hits: UnsafePointer<UInt64>?
            let size = Int(esl_coverage_file_lines(thread, index, &hits))
            var lines: [Int: Int] = [:]
            if let hits {
                for line in 0..<size where hits[line] > 0 { lines[line] = Int(clamping: hits[line]) }
            }
            files[name] = lines
        }
        return files
    }
}
