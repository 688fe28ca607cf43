public import Foundation

/// The keys of a ``TweakCipher``, in order: every key opens the values sealed with it, and the last one
/// seals new values. Rotating a key is adding a new one at the end (`envscript tweak keygen`), re-sealing
/// the values, and removing the old one once nothing names it.
///
/// The text form, in key files and in a key list such as `$ENVSCRIPT_TWEAK_KEYS`, is one key per line —
/// `ID BASE64 [demo]`, the base64 of 32 bytes, `demo` marking a key that is not a secret — with `#`
/// starting a comment; in a one-line list, `;` separates keys.
public struct TweakCipherKeyring: Sendable, Equatable {
    /// The keys, oldest first; the last one seals.
    public private(set) var keys: [TweakCipherKey]

    /// A keyring of `keys` (the last one seals).
    ///
    /// - Throws: ``TweakCipherError/Code/invalidKeys`` when two keys share an id.
    public init(_ keys: [TweakCipherKey]) throws {
        self.keys = []
        for key in keys { try append(key, origin: "the key list") }
    }

    /// The key that seals new values: the last one, or nil for an empty ring.
    package var sealingKey: TweakCipherKey? { keys.last }

    /// The key named `id`.
    public func key(id: String) -> TweakCipherKey? { keys.first { $0.id == id } }

    /// The ids of every key, oldest first.
    package var ids: [String] { keys.map(\.id) }

    /// Whether every key is a demo key (an empty ring is not).
    package var holdsOnlyDemoKeys: Bool { !keys.isEmpty && keys.allSatisfy(\.isDemo) }

    /// The keys of this ring that `other` does not have, then every key of `other` in its order — so
    /// the last key of `other` seals, when it has keys.
    ///
    /// - Throws: ``TweakCipherError/Code/invalidKeys`` when both have a key under one id
    ///   but with different bytes.
    package func merged(with other: TweakCipherKeyring, origin: String) throws -> TweakCipherKeyring {
        var merged = try TweakCipherKeyring([])
        for key in keys {
            if let same = other.key(id: key.id) {
                guard same.material.key == key.material.key else {
                    throw TweakCipherError.invalidKeys(
                        origin: origin, line: 0, reason: "key '\(key.id)' is given twice with different bytes; give one of them another id")
                }
                continue
            }
            merged.keys.append(key)
        }
        merged.keys += other.keys
        return merged
    }

    /// Appends `key`; `line` is its line in a text (whose content errors never quote), 0 for a key given
    /// in code or on the command line.
    mutating func append(_ key: TweakCipherKey, origin: String, line: Int = 0) throws {
        if self.key(id: key.id) != nil {
            let reason = line > 0
                ? "a second key with an id already used above; ids must be unique"
                : "a second key with id '\(key.id)'; ids must be unique"
            throw TweakCipherError.invalidKeys(origin: origin, line: line, reason: reason)
        }
        keys.append(key)
    }

    /// Reads the text form. `origin` names the text in errors (a path, or the environment variable).
    ///
    /// Errors name the line and never quote any of it: the text holds secrets, or is no key file at all.
    public static func parse(_ text: String, origin: String) throws -> TweakCipherKeyring {
        var ring = try TweakCipherKeyring([])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let number = index + 1
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            for entry in content.split(separator: ";") {
                try ring.appendEntry(entry, origin: origin, line: number)
            }
        }
        return ring
    }

    /// Reads one entry, `ID BASE64 [demo]`, of line `number`; a blank entry is skipped.
    private mutating func appendEntry(_ entry: Substring, origin: String, line number: Int) throws {
        let words = entry.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        if words.isEmpty { return }
        func problem(_ reason: String) -> TweakCipherError {
            .invalidKeys(origin: origin, line: number, reason: reason)
        }
        guard words.count == 2 || (words.count == 3 && words[2] == "demo") else {
            throw problem("expected ID BASE64-KEY, optionally followed by the word demo")
        }
        let id = String(words[0])
        do {
            try TweakCipherKey.validate(id: id)
        } catch {
            throw problem("the key id is not valid: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit")
        }
        guard let bytes = Data(base64Encoded: String(words[1])), bytes.count == TweakCipherKey.byteCount else {
            throw problem("the key is not the base64 of \(TweakCipherKey.byteCount) bytes (make one with envscript tweak keygen)")
        }
        try append(try TweakCipherKey(id: id, bytes: bytes, isDemo: words.count == 3), origin: origin, line: number)
    }

    /// The text form, one key per line.
    public var text: String {
        keys.map { "\($0.id) \($0.base64)\($0.isDemo ? " demo" : "")\n" }.joined()
    }

    /// The keys in the environment variable `name`, or nil when it is unset or empty.
    ///
    /// - Throws: ``TweakCipherError/Code/invalidKeys`` naming the variable.
    public static func environment(_ name: String) throws -> TweakCipherKeyring? {
        guard let text = ProcessInfo.processInfo.environment[name], !text.isEmpty else { return nil }
        return try parse(text, origin: "$\(name)")
    }

    /// The keys in a key file, checked: a regular file that others may not write, nor read unless it
    /// holds demo keys only.
    ///
    /// - Throws: ``TweakCipherError/Code/keyFileIO``,
    ///   ``TweakCipherError/Code/keyFilePermissions`` or
    ///   ``TweakCipherError/Code/invalidKeys``.
    public static func load(file url: URL) throws -> TweakCipherKeyring {
        try TweakKeyFile.read(url)
    }
}
