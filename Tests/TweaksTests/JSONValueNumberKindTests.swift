import Foundation
import Testing
import Tweaks

/// The one float rule of `JSONValue`: numbers keep their kind through its JSON text, and through
/// Foundation's coders when they are asked to keep it.
@Suite struct JSONValueNumberKindTests {
    let sample: JSONValue = ["whole": 2.0, "int": 2, "fraction": 0.5, "huge": 1e300, "list": [1, 1.0, .null], "text": "2.0"]

    @Test func jsonTextWritesAndReadsEachKind() throws {
        #expect(JSONValue.double(2).jsonText == "2.0")
        #expect(JSONValue.int(2).jsonText == "2")
        #expect(sample.jsonText == #"{"fraction":0.5,"huge":1e+300,"int":2,"list":[1,1.0,null],"text":"2.0","whole":2.0}"#)
        #expect(try JSONValue(jsonText: Data(sample.jsonText.utf8)) == sample)
        #expect(try JSONValue(jsonText: Data("[3, 3.0, 3e0, 9223372036854775808]".utf8))
            == [3, 3.0, 3.0, .double(9_223_372_036_854_775_808)])
    }

    @Test func foundationCodersLoseAWholeDoubleUnlessAskedToKeepIt() throws {
        let plain = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(sample))
        #expect(plain.objectValue?["whole"] == .int(2), "Foundation writes 2.0 as 2")

        let encoder = JSONEncoder()
        encoder.userInfo[JSONValue.keepsNumberKinds] = true
        let decoder = JSONDecoder()
        decoder.userInfo[JSONValue.keepsNumberKinds] = true
        let written = try encoder.encode(sample)
        #expect(String(decoding: written, as: UTF8.self).contains(#"{"$float":"2.0"}"#))
        #expect(try decoder.decode(JSONValue.self, from: written) == sample)
        #expect(try JSONValue(jsonText: written).readingFloatMarkers() == sample)
        // Without the key, a marker is an ordinary object.
        #expect(try JSONDecoder().decode(JSONValue.self, from: written).objectValue?["whole"] == ["$float": "2.0"])
    }

    @Test func nullIsAValueAndFlagsSayWhenOneIsInside() throws {
        #expect(try JSONValue(jsonText: Data("null".utf8)) == .null)
        #expect(JSONValue.null.typeName == "null")
        #expect(sample.containsNull)
        #expect(!JSONValue(parsing: "2.5").containsNull && JSONValue(parsing: "2.5") == .double(2.5))
        #expect(JSONValue.double(2).acceptsType(of: .int(2)) && !JSONValue.int(2).acceptsType(of: .double(2)))
    }

    @Test func aFlagIsNeverSetToANull() throws {
        let manager = TweakManager(providers: [EphemeralTweakProvider(name: "memory")])
        #expect(throws: TweakError.self) { try manager.set(["a": .null], feature: "f", variable: "v", changingType: true) }
        #expect(throws: TweakError.self) { try manager.set(JSONValue.null, feature: "f", variable: "v", changingType: true) }
        try manager.set(["a": 1], feature: "f", variable: "v")
        #expect(try manager.resolvedValue(feature: "f", variable: "v") == ["a": 1])
    }
}
