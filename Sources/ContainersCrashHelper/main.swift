// A child process for ContainersTests' crash and concurrency tests: it switches a home's containers
// and, when told, kills itself with SIGKILL at a named point of a switch.
//
//   ContainersCrashHelper switch <home> <name-or-uuid> [--exclude RULE]... [--newcomer-at STEP PATH]...
//       one switch; prints "kept <path>" for each entry it set aside as a newcomer (see KeptNewcomer),
//       then "+" once it is done ("=" if the container was already active)
//   ContainersCrashHelper cycle <home> <count> <seed> [--exclude RULE]...
//       <count> switches to randomly chosen other containers; prints "R" when ready to start, then "+"
//       after each switch this process made, or "=" when another process had made the target active
//       first
//   ContainersCrashHelper claim <home> <application-id>
//       prints "R", waits for a line on standard input, then settles the home's application identifier
//       as <application-id> (recording it if the home has none) and prints the identifier
//
// ENVSCRIPT_CRASH_AT=<step> (a SwitchStep description such as "journal-written" or "moved-3") makes the
// process kill itself with SIGKILL when a switch reaches that step. --newcomer-at STEP PATH plays an
// application that writes the file <home>/PATH (content "newcomer PATH") when the switch reaches STEP,
// before any kill at that step.

import Containers
import Foundation

import Locking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small deterministic generator (SplitMix64), so a seed replays the same switches.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ContainersCrashHelper: \(message)\n".utf8))
    exit(2)
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

var arguments = Array(CommandLine.arguments.dropFirst())
var excludes: [String] = []
while let index = arguments.firstIndex(of: "--exclude") {
    guard index + 1 < arguments.count else { fail("--exclude needs a rule") }
    excludes.append(arguments[index + 1])
    arguments.removeSubrange(index...(index + 1))
}
var newcomers: [(step: String, path: String)] = []
while let index = arguments.firstIndex(of: "--newcomer-at") {
    guard index + 2 < arguments.count else { fail("--newcomer-at needs a step and a path") }
    newcomers.append((arguments[index + 1], arguments[index + 2]))
    arguments.removeSubrange(index...(index + 2))
}
guard arguments.count >= 3 else {
    fail("usage: switch <home> <name-or-uuid> [--newcomer-at STEP PATH]... | cycle <home> <count> <seed>, each with [--exclude RULE]... | claim <home> <application-id>")
}

do {
    let containers = try AppContainer(home: URL(fileURLWithPath: arguments[1], isDirectory: true))
    containers.customExcludeFiles = excludes
    let crashAt = ProcessInfo.processInfo.environment["ENVSCRIPT_CRASH_AT"] ?? ""
    let home = arguments[1]
    let plannedNewcomers = newcomers
    containers.observeSwitchSteps { step in
        for newcomer in plannedNewcomers where newcomer.step == step.description {
            let url = URL(fileURLWithPath: home).appendingPathComponent(newcomer.path)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data("newcomer \(newcomer.path)".utf8).write(to: url)
            } catch {
                fail("cannot write the newcomer \(url.path): \(error)")
            }
        }
        if case .keptNewcomer(let kept) = step { say("kept \(kept.path)") }
        if !crashAt.isEmpty, step.description == crashAt { kill(getpid(), SIGKILL) }
    }
    let switchesMade = Locked(0)
    containers.addDidChangeHook { _, _ in switchesMade.withLock { $0 += 1 } }
    /// Activates `target` and says whether this process switched.
    func activate(_ target: Container) throws {
        let before = switchesMade.withLock { $0 }
        try containers.activate(container: target)
        say(switchesMade.withLock { $0 } > before ? "+" : "=")
    }
    switch arguments[0] {
    case "switch":
        try activate(containers.resolve(arguments[2]))
    case "cycle":
        guard arguments.count >= 4, let count = Int(arguments[2]), let seed = UInt64(arguments[3]) else {
            fail("cycle needs <count> <seed>")
        }
        var generator = SeededGenerator(state: seed)
        say("R")
        for _ in 0..<count {
            let active = try containers.activeContainer
            let others = try containers.containers.filter { $0.uuid != active.uuid }
            guard let target = others.randomElement(using: &generator) else { fail("only one container") }
            try activate(target)
        }
    case "claim":
        say("R")
        guard readLine() != nil else { fail("standard input ended before the signal to claim") }
        say(try containers.settleApplicationID(requested: arguments[2], fallback: arguments[2], recording: true))
    default:
        fail("unknown command '\(arguments[0])'")
    }
} catch {
    fail("\(error)")
}
