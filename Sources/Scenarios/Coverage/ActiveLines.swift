/// The lines of a chunk that hold code — those a line hook can stop at — read from the bytecode
/// `string.dump` writes for it (Lua 5.4's format, with its debug information): for each function of
/// the chunk, nested ones included, the line of each instruction, as Lua's own `collectvalidlines`
/// finds them (`debug.getinfo(f, "L")`), but for every function at once.
enum ActiveLines {
    /// The format's mark for an instruction whose line is kept in the absolute line table.
    private static let absoluteLineMark: Int8 = -0x80

    /// The active lines of the chunk dumped in `bytecode`, or nil when the bytes are not a Lua 5.4
    /// dump with debug information.
    static func lines(inDump bytecode: [UInt8]) -> Set<Int>? {
        var reader = Reader(bytes: bytecode)
        // Signature, version, format, LUAC_DATA, three sizes, a test integer and number, then the main
        // function's number of upvalues.
        guard bytecode.starts(with: [0x1B, 0x4C, 0x75, 0x61, 0x54]), bytecode.count > 32 else { return nil }
        guard bytecode[12] == 4, bytecode[13] == 8, bytecode[14] == 8 else { return nil }
        reader.offset = 32
        var lines: Set<Int> = []
        guard reader.function(into: &lines) else { return nil }
        return lines
    }

    /// Reads a dump, function by function.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        /// `dumpSize`: seven bits a byte, most significant first, the last byte marked with 0x80.
        mutating func size() -> Int? {
            var value = 0
            while let byte = byte() {
                guard value < Int.max >> 7 else { return nil }
                value = value << 7 | Int(byte & 0x7F)
                if byte & 0x80 != 0 { return value }
            }
            return nil
        }

        mutating func skip(_ count: Int) -> Bool {
            guard count >= 0, offset + count <= bytes.count else { return false }
            offset += count
            return true
        }

        /// `dumpString`: its size plus one (0 for none), then its bytes.
        mutating func skipString() -> Bool {
            guard let size = size() else { return false }
            return size == 0 || skip(size - 1)
        }

        /// One function and those nested in it; adds their active lines.
        mutating func function(into lines: inout Set<Int>) -> Bool {
            guard skipString(), let lineDefined = size(), size() != nil, skip(1), let isVararg = byte(), skip(1) else { return false }
            guard let codeSize = size(), skip(codeSize * 4) else { return false }
            guard let constants = size() else { return false }
            for _ in 0..<constants {
                switch byte() {
                case 0x03, 0x13: guard skip(8) else { return false }
                case 0x04, 0x14: guard skipString() else { return false }
                case 0x00, 0x01, 0x11: break
                default: return false
                }
            }
            guard let upvalues = size(), skip(upvalues * 3) else { return false }
            guard let protos = size() else { return false }
            for _ in 0..<protos {
                guard function(into: &lines) else { return false }
            }
            guard let lineInfoSize = size(), offset + lineInfoSize <= bytes.count else { return false }
            let lineInfo = bytes[offset..<offset + lineInfoSize].map { Int8(bitPattern: $0) }
            offset += lineInfoSize
            guard let absoluteCount = size() else { return false }
            var absolute: [Int: Int] = [:]
            for _ in 0..<absoluteCount {
                guard let pc = size(), let line = size() else { return false }
                absolute[pc] = line
            }
            guard let locals = size() else { return false }
            for _ in 0..<locals {
                guard skipString(), size() != nil, size() != nil else { return false }
            }
            guard let upvalueNames = size() else { return false }
            for _ in 0..<upvalueNames {
                guard skipString() else { return false }
            }
            // As Lua's collectvalidlines: every instruction's line, but a vararg function's first
            // (its OP_VARARGPREP, at the line it is defined on).
            var line = lineDefined
            for (pc, delta) in lineInfo.enumerated() {
                if delta == ActiveLines.absoluteLineMark {
                    guard let base = absolute[pc] else { return false }
                    line = base
                } else {
                    line += Int(delta)
                }
                if pc > 0 || isVararg == 0 { lines.insert(line) }
            }
            return true
        }
    }
}
