import Foundation

/// The fuzz targets, by the names `scripts/fuzz` takes.
enum FuzzTarget: String, CaseIterable {
    case tweaksJSON = "tweaks-json"
    case propertyList = "property-list"
    case bookkeeping
    case journal
    case swiftToLua = "swift-to-lua"
    case luaToSwift = "lua-to-swift"

    /// The target named by `ENVSCRIPT_FUZZ_TARGET`; stops the process with the list of names otherwise.
    static let selected: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["ENVSCRIPT_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("ENVSCRIPT_FUZZ_TARGET must name a target: \(names)\n".utf8))
            exit(2)
        }
        return target
    }()

    /// Runs one input through the target's readers and checks its invariants.
    func run(_ data: Data) {
        switch self {
        case .tweaksJSON: TweaksJSONFuzz.run(data)
        case .propertyList: PropertyListFuzz.run(data)
        case .bookkeeping: BookkeepingFuzz.run(data)
        case .journal: JournalFuzz.run(data)
        case .swiftToLua: SwiftToLuaFuzz.run(data)
        case .luaToSwift: LuaToSwiftFuzz.run(data)
        }
    }
}

/// Stops the process on a broken invariant, naming it (libFuzzer keeps the input that did it).
func fuzzFailure(_ message: String) -> Never {
    FileHandle.standardError.write(Data("invariant broken: \(message)\n".utf8))
    abort()
}
