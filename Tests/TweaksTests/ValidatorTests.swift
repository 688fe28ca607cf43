import Foundation
import Testing
import TestSupport
@testable import Tweaks

/// `TweakFileValidator`: every problem of every file at once.
@Suite struct ValidatorTests {
    @Test func aFileWithSeveralProblemsReportsEachWithItsPlace() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("""
            {
              "checkout": {
                "color": { "Titel": "Colour", "Value": "blue" },
                "limit": { "Title": 3, "Value": 5 },
                "gone": { "Title": "no value" },
                "empty": { "Value": [1, null] }
              },
              "broken": 7
            }
            """, to: "flags.json").path
        let report = TweakFileValidator.validate(files: [file], cipher: nil)
        let lines = report.problems.map { "\($0)" }
        #expect(lines == [
            "\(file):3:16: unknown field 'Titel', ignored when loading; did you mean 'Title'? (key 'checkout.color.Titel')",
            "\(file):4:25: must be a string, found integer (key 'checkout.limit.Title')",
            "\(file):5:13: missing \"Value\" (key 'checkout.gone')",
            "\(file):6:29: null is not a tweak value; leave the field out instead (key 'checkout.empty.Value[1]')",
            "\(file):8:13: a feature must be an object of variables, found integer (key 'broken')",
        ], "\(lines.joined(separator: "\n"))")
        #expect(report.flagCount == 1, "only checkout.color is usable")
        #expect(!report.isValid)
    }

    @Test func aFlagOfAnotherTypeInAnotherFileIsReportedWithBothPlaces() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let shipped = try folder.write(#"{ "ui": { "color": { "Value": "blue" }, "ratio": { "Value": 1.5 }, "grid": { "Value": {"columns": 2} } } }"#, to: "shipped.json").path
        let staging = try folder.write(#"{ "ui": { "color": { "Value": 3 }, "ratio": { "Value": 2 }, "grid": { "Value": {"columns": 4} } } }"#, to: "staging.json").path
        let report = TweakFileValidator.validate(files: [shipped, staging], cipher: nil)
        #expect(report.problems.map { "\($0)" } == [
            "\(staging):1:22: 'ui.color' is an int here but a string at \(shipped):1:22; give every file the same type (key 'ui.color.Value')",
        ])
        #expect(report.flagCount == 6)
    }

    @Test func sealedValuesAreOpenedWithTheKeysAndTheirTypesCompared() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cipher = TweakCipher(keyring: try TweakCipherKeyring([try TweakCipherKey.generate(id: "k1")]))
        let foreign = TweakCipher(keyring: try TweakCipherKeyring([try TweakCipherKey.generate(id: "k9")]))
        let good = try cipher.seal(42)
        var tampered = Array(try cipher.seal("x").utf8)
        tampered[tampered.count - 4] = tampered[tampered.count - 4] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let file = try folder.write("""
            { "api": {
                "limit": { "Value": "\(good)", "Encrypted": true },
                "token": { "Value": "\(String(decoding: tampered, as: UTF8.self))", "Encrypted": true },
                "other": { "Value": "\(try foreign.seal("y"))", "Encrypted": true },
                "legacy": { "Value": "b64-from-a-decryptor", "Encrypted": true }
            } }
            """, to: "secrets.json").path
        let plain = try folder.write(#"{ "api": { "limit": { "Value": "ten" } } }"#, to: "plain.json").path
        let report = TweakFileValidator.validate(files: [file, plain], cipher: cipher)
        let lines = report.problems.map { "\($0)" }
        #expect(lines.count == 3, "\(lines)")
        #expect(lines[0].hasPrefix("\(file):3:") && lines[0].contains("does not open with key 'k1'"))
        #expect(lines[1].hasPrefix("\(file):4:") && lines[1].contains("sealed with key 'k9', which the cipher does not have"))
        #expect(lines[2].hasPrefix("\(plain):1:") && lines[2].contains("'api.limit' is a string here but an int"))
        #expect(report.openedCount == 1)
        #expect(report.uncheckedEncryptedCount == 1)

        // A sealed value not marked Encrypted would ship its ciphertext; an encrypted value must be text.
        let unmarked = try folder.write("""
            { "api": { "token": { "Value": "\(good)" }, "pin": { "Value": 1234, "Encrypted": true } } }
            """, to: "unmarked.json").path
        let marks = TweakFileValidator.validate(files: [unmarked], cipher: cipher).problems.map { "\($0)" }
        #expect(marks.count == 2, "\(marks)")
        #expect(marks.contains { $0.contains("is not marked \"Encrypted\": true") && $0.contains("api.token") })
        #expect(marks.contains { $0.contains("holds an int; an encrypted value is text") && $0.contains("api.pin") })

        let keyless = TweakFileValidator.validate(files: [file], cipher: nil)
        #expect(keyless.problems.count == 3)
        #expect(keyless.problems.allSatisfy { "\($0)".contains("no keys were given") })
    }

    @Test func syntaxErrorsAndUnreadableFilesDoNotStopTheOthers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let broken = try folder.write("{ \"a\": { \"b\": { \"Value\": tru } } }", to: "broken.json").path
        let fine = try folder.write(#"{ "a": { "b": { "Value": true } } }"#, to: "fine.json").path
        let missing = folder.url.appendingPathComponent("missing.json").path
        let report = TweakFileValidator.validate(files: [broken, missing, fine], cipher: nil)
        #expect(report.problems.count == 2)
        #expect("\(report.problems[0])".hasPrefix("\(broken):1:"))
        #expect("\(report.problems[1])".contains("missing.json"))
        #expect(report.flagCount == 1)
        #expect(TweakFileValidator.validate(files: [fine], cipher: nil).isValid)
    }
}
