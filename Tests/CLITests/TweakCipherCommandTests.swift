import Foundation
import Testing

/// `envscript tweak keygen`, `seal` and `unseal`, against the built binary.
@Suite(.timeLimit(.minutes(15))) struct TweakCipherCommandTests {
    @Test func keygenMakesAPrivateKeyFileAndEachNewKeySeals() throws {
        let scratch = try Scratch()
        let first = try scratch.run("tweak", "keygen", "--key-file", "app.tweak-keys")
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("added key 'k1'"))
        let mode = try FileManager.default.attributesOfItem(atPath: scratch.url.appendingPathComponent("app.tweak-keys").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let sealedWithK1 = try scratch.run("tweak", "seal", "first secret", "--key-file", "app.tweak-keys").standardOutput
        #expect(sealedWithK1.hasPrefix("es1:k1:"))
        #expect(try scratch.run("tweak", "keygen", "--key-file", "app.tweak-keys", "--id", "2026-11").status == 0)
        let sealedWith2026 = try scratch.run("tweak", "seal", "--json", #"{"columns": 3}"#, "--key-file", "app.tweak-keys")
        #expect(sealedWith2026.standardOutput.hasPrefix("es1:2026-11:"))
        #expect(sealedWith2026.standardError.isEmpty, "a key of one's own seals without a warning")
        let pinned = try scratch.run("tweak", "seal", "42", "--key-id", "k1", "--key-file", "app.tweak-keys").standardOutput
        #expect(pinned.hasPrefix("es1:k1:"))
        let unknownID = try scratch.run("tweak", "seal", "42", "--key-id", "k9", "--key-file", "app.tweak-keys")
        #expect(unknownID.status == 2)
        #expect(unknownID.standardError.contains("--key-id: there is no key 'k9'; the keys are 'k1', '2026-11'"))

        // Both keys open what they sealed, with the type kept.
        let trimmed = { (text: String) in text.trimmingCharacters(in: .newlines) }
        #expect(try scratch.run("tweak", "unseal", trimmed(sealedWithK1), "--key-file", "app.tweak-keys").standardOutput == "first secret\n")
        #expect(try scratch.run("tweak", "unseal", trimmed(sealedWith2026.standardOutput), "--key-file", "app.tweak-keys").standardOutput == #"{"columns":3}"# + "\n")
        #expect(try scratch.run("tweak", "unseal", trimmed(pinned), "--key-file", "app.tweak-keys").standardOutput == "42\n")

        let taken = try scratch.run("tweak", "keygen", "--key-file", "app.tweak-keys", "--id", "k1")
        #expect(taken.status == 2)
        #expect(taken.standardError.contains("a second key with id 'k1'"))
        let badID = try scratch.run("tweak", "keygen", "--key-file", "app.tweak-keys", "--id", "no/slash")
        #expect(badID.status == 2)
        #expect(badID.standardError.contains("--id"))
    }

    @Test func unsealRefusesTamperedTruncatedAndForeignValuesNamingTheKey() throws {
        let scratch = try Scratch()
        #expect(try scratch.run("tweak", "keygen", "--key-file", "a.keys").status == 0)
        #expect(try scratch.run("tweak", "keygen", "--key-file", "b.keys", "--id", "other").status == 0)
        let sealed = try scratch.run("tweak", "seal", "secret", "--key-file", "a.keys").standardOutput
            .trimmingCharacters(in: .newlines)

        var bytes = Array(sealed.utf8)
        let index = bytes.count - 5
        bytes[index] = bytes[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let tampered = try scratch.run("tweak", "unseal", String(decoding: bytes, as: UTF8.self), "--key-file", "a.keys")
        #expect(tampered.status == 1)
        #expect(tampered.standardError.contains("key 'k1'"))
        #expect(tampered.standardOutput.isEmpty)

        let foreign = try scratch.run("tweak", "unseal", sealed, "--key-file", "b.keys")
        #expect(foreign.status == 1)
        #expect(foreign.standardError.contains("sealed with key 'k1', which the cipher does not have (it has 'other')"))

        let truncated = try scratch.run("tweak", "unseal", String(sealed.prefix(20)), "--key-file", "a.keys")
        #expect(truncated.status == 2)
        #expect(truncated.standardError.contains("k1"))
        let notSealed = try scratch.run("tweak", "unseal", "hello", "--key-file", "a.keys")
        #expect(notSealed.status == 2)
        #expect(notSealed.standardError.contains("not a sealed value"))
    }

    @Test func keysComeFromTheStartUpScriptOrTheEnvironmentAndAKeyFileOthersCanReadIsRefused() throws {
        let scratch = try Scratch()
        #expect(try scratch.run("tweak", "keygen", "--key-file", "keys/app.keys").status == 0)
        try scratch.write("envscript.lua", "tweak.cipher{ key_file = 'keys/app.keys' }")
        let viaScript = try scratch.run("tweak", "seal", "from the script")
        #expect(viaScript.status == 0, "\(viaScript.standardError)")
        let sealed = viaScript.standardOutput.trimmingCharacters(in: .newlines)
        #expect(try scratch.run("tweak", "unseal", sealed).standardOutput == "from the script\n")

        // The environment's keys, without a start-up script.
        let keyLine = try String(contentsOf: scratch.url.appendingPathComponent("keys/app.keys"), encoding: .utf8)
            .split(separator: "\n").first { !$0.hasPrefix("#") && !$0.isEmpty }.map(String.init) ?? ""
        let viaEnvironment = try scratch.run("tweak", "unseal", sealed, "--no-init", environment: ["ENVSCRIPT_TWEAK_KEYS": keyLine])
        #expect(viaEnvironment.standardOutput == "from the script\n", "\(viaEnvironment.standardError)")
        let badEnvironment = try scratch.run("tweak", "unseal", sealed, "--no-init", environment: ["ENVSCRIPT_TWEAK_KEYS": "k1 short"])
        #expect(badEnvironment.status == 2)
        #expect(badEnvironment.standardError.contains("$ENVSCRIPT_TWEAK_KEYS:1"))
        let none = try scratch.run("tweak", "seal", "x", "--no-init")
        #expect(none.status == 2)
        #expect(none.standardError.contains("--key-file"))

        // A key file others may read: refused, saying how to fix it, without its contents.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: scratch.url.appendingPathComponent("keys/app.keys").path)
        let exposed = try scratch.run("tweak", "unseal", sealed)
        #expect(exposed.status == 2, "the start-up script fails")
        #expect(exposed.standardError.contains("chmod 600"))
        #expect(!exposed.standardError.contains(String(keyLine.split(separator: " ")[1])))
        let refused = try scratch.run("tweak", "unseal", sealed, "--no-init", "--key-file", "keys/app.keys")
        #expect(refused.status == 1, "a refusal: \(refused.standardError)")
        #expect(refused.standardError.hasPrefix("--key-file: key file ") && refused.standardError.contains("keys/app.keys may be read by others (mode 644)"))
    }

    @Test func keygenFromManyProcessesAtOnceKeepsEveryKey() throws {
        let scratch = try Scratch()
        let processes = try (0..<8).map { index in
            try EnvScriptProcess.start(["tweak", "keygen", "--key-file", "shared.keys", "--id", "p\(index)"], in: scratch.url)
        }
        for process in processes {
            let outcome = process.wait()
            #expect(outcome.status == 0, "\(outcome.standardError)")
        }
        let text = try String(contentsOf: scratch.url.appendingPathComponent("shared.keys"), encoding: .utf8)
        let ids = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map { String($0.split(separator: " ")[0]) }
        #expect(Set(ids) == Set((0..<8).map { "p\($0)" }))
        #expect(ids.count == 8)
        #expect(text.components(separatedBy: "EnvScript tweak keys").count == 2, "one header, written by whoever came first")
    }
}

/// `envscript tweak validate`, against the built binary.
@Suite(.timeLimit(.minutes(15))) struct TweakValidateCommandTests {
    @Test func everyProblemOfEveryFileIsListedAndTheStatusIsOne() throws {
        let scratch = try Scratch()
        try scratch.write("a.json", #"{ "ui": { "color": { "Value": "blue", "Grup": "UI" } } }"#)
        try scratch.write("b.json", #"{ "ui": { "color": { "Value": 4 }, "size": { } } }"#)
        let outcome = try scratch.run("tweak", "validate", "a.json", "b.json")
        #expect(outcome.status == 1)
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(outcome.standardOutput)")
        #expect(lines[0].hasPrefix("a.json:1:") && lines[0].contains("did you mean 'Group'?"))
        #expect(lines[1].hasPrefix("b.json:1:") && lines[1].contains("'ui.color' is an int here but a string at a.json:1:"))
        #expect(lines[2].hasPrefix("b.json:1:") && lines[2].contains("missing \"Value\""))
        #expect(lines[3] == "3 problems: 2 flags in 2 files")

        let json = try scratch.run("tweak", "validate", "a.json", "b.json", "--json")
        #expect(json.status == 1)
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect((payload["problems"] as? [[String: Any]])?.count == 3)
        #expect(try scratch.run("tweak", "validate").status == 2)
    }

    @Test func theExamplesAreValidWithTheDemoKey() throws {
        let examples = ExampleTests.examples
        let outcome = try EnvScriptProcess.run(
            ["tweak", "validate", "tweaks.json", "--key-file", "keys/demo.tweak-keys"], in: examples)
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardOutput == "ok: 6 flags in 1 file (1 sealed value opened; 1 encrypted value in another format left to a decryptor)\n")
        let keyless = try EnvScriptProcess.run(["tweak", "validate", "tweaks.json"], in: examples)
        #expect(keyless.status == 1)
        #expect(keyless.standardOutput.contains("sealed with key 'demo-2026', but no keys were given"))
    }
}
