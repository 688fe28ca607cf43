// libFuzzer's entry points. One binary holds every target; ENVSCRIPT_FUZZ_TARGET names the one to run
// (scripts/fuzz sets it). A broken invariant stops the process with `fuzzFailure`, which libFuzzer reports
// as a crash and saves the input of.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    FuzzTarget.selected.run(data)
    return 0
}

/// libFuzzer's driver, which its own `main` calls.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The program's entry in a debug build: SwiftPM links an executable target's `main` to
/// `<module>_main` there (so tests can link the module), which takes the place of libFuzzer's `main`.
@_cdecl("EnvScriptFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { start, size in fuzzOneInput(start, size) }
}
