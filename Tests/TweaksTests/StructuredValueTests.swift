import Foundation
import Preferences
import Testing
@testable import Tweaks
import TestSupport

/// Arrays and objects as flag values: read from a tweaks file, stored as overrides, decoded into Swift
/// types, and kept to their type when written.
@Suite struct StructuredValueTests {
    static let shipped = """
        {
          "checkout": {
            "layout": { "Value": { "columns": 3, "style": "grid", "badges": ["new", "sale"], "ratio": 1.5 } },
            "steps": { "Value": ["cart", "address", "pay"] },
            "max_items": { "Value": 3 }
          }
        }
        """

    struct Layout: Codable, Equatable {
        var columns: Int
        var style: String
        var badges: [String]
        var ratio: Double
    }

    private func stack(_ folder: TemporaryFolder) throws -> (TweakManager, OverridesTweakProvider) {
        let overrides = OverridesTweakProvider(store: PreferencesStore(home: folder.url, appID: "app"))
        let shipped = try LocalJSONTweakProvider(fileURL: folder.write(Self.shipped, to: "shipped.json"), name: "shipped")
        return (TweakManager(providers: [overrides, shipped], cacheEnabled: true), overrides)
    }

    @Test func aTweaksFileHoldsObjectsAndArrays() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (tweaks, _) = try stack(folder)
        let layout = try tweaks.lookup(feature: "checkout", variable: "layout").value
        #expect(layout == ["columns": 3, "style": "grid", "badges": ["new", "sale"], "ratio": 1.5])
        #expect(layout.objectValue?["badges"]?.arrayValue?.count == 2)
        #expect(try tweaks.value("checkout", "steps", as: JSONValue.self) == ["cart", "address", "pay"])
        #expect(try tweaks.value("checkout", "layout", as: Layout.self)
                == Layout(columns: 3, style: "grid", badges: ["new", "sale"], ratio: 1.5))
        #expect(try tweaks.value("checkout", "steps", as: [String].self) == ["cart", "address", "pay"])
        // Scalars still read through the strict accessor, not through Decodable.
        #expect(try tweaks.value("checkout", "max_items", as: Int.self) == 3)
        #expect(throws: TweakError.self) { try tweaks.value("checkout", "max_items", as: Bool.self) }
        #expect(layout.jsonText == #"{"badges":["new","sale"],"columns":3,"ratio":1.5,"style":"grid"}"#)
    }

    @Test func aNullInAStructuredValueIsRefusedWhereItStands() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("""
            {"checkout": {
              "layout": {"Value": {"columns": null}}
            }}
            """, to: "bad.json")
        let error = #expect(throws: TweakError.self) { try LocalJSONTweakProvider(fileURL: file) }
        let message = "\(error.map { $0 as Any } ?? "")"
        #expect(message.contains("bad.json:2:"), "\(message)")
        #expect(message.contains("checkout.layout.Value.columns"), "\(message)")
        #expect(message.contains("null is not a tweak value"), "\(message)")
    }

    @Test func aDecodingErrorNamesTheFieldThatDidNotFit() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (tweaks, overrides) = try stack(folder)
        try overrides.set(["columns": "three", "style": "grid", "badges": [], "ratio": 1], feature: "checkout", variable: "layout")
        let error = #expect(throws: TweakError.self) { try tweaks.value("checkout", "layout", as: Layout.self) }
        guard case .decodingFailed(_, _, let type, let field, _, let source) = error?.reason else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(type == "Layout")
        #expect(field == "columns")
        #expect(source == "overrides")
        #expect("\(error!)".contains("cannot be read as Layout at 'columns'"))

        try overrides.set(["columns": 2, "style": "grid", "badges": ["a", 7], "ratio": 1], feature: "checkout", variable: "layout")
        let nested = #expect(throws: TweakError.self) { try tweaks.value("checkout", "layout", as: Layout.self) }
        #expect("\(nested!)".contains("at 'badges[1]'"), "\(nested!)")
    }

    @Test func overridesStoreStructuredValuesAndKeepThemAcrossAReread() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (tweaks, _) = try stack(folder)
        let wide = Layout(columns: 5, style: "list", badges: [], ratio: 2)
        try tweaks.set(try JSONValue(encoding: wide), feature: "checkout", variable: "layout")
        #expect(try tweaks.value("checkout", "layout", as: Layout.self) == wide)
        try tweaks.set(["cart", "pay"], feature: "checkout", variable: "steps")

        // A fresh store over the same file: the values come back whole. A whole double encodes as JSON's
        // `2`, an integer, which decoding reads back as the Double it was.
        let (reread, _) = try stack(folder)
        #expect(try reread.value("checkout", "layout", as: Layout.self) == wide)
        #expect(try reread.lookup(feature: "checkout", variable: "layout").value.objectValue?["ratio"] == .int(2))
        try reread.set(["ratio": .double(2)], feature: "checkout", variable: "layout")
        #expect(try stack(folder).0.lookup(feature: "checkout", variable: "layout").value == ["ratio": .double(2)],
                "a double stored as such stays a double in the preferences file")
        #expect(try reread.lookup(feature: "checkout", variable: "steps").tweak.source == "overrides")
        #expect(try reread.value("checkout", "steps", as: [String].self) == ["cart", "pay"])
    }

    @Test func aWriteKeepsTheFlagsTypeAndNamesItWhenRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (tweaks, overrides) = try stack(folder)
        let error = #expect(throws: TweakError.self) { try tweaks.set(3, feature: "checkout", variable: "layout") }
        #expect("\(error!)" == "tweak 'checkout.layout' is an object (as shipped defines it), not an int (3); give a value of that type")
        #expect(throws: TweakError.self) { try tweaks.set(["a"], feature: "checkout", variable: "layout") }
        #expect(throws: TweakError.self) { try tweaks.set(["columns": 1], feature: "checkout", variable: "steps") }
        #expect(throws: TweakError.self) { try tweaks.set("4", feature: "checkout", variable: "max_items") }
        #expect(try overrides.allTweaks().isEmpty, "nothing refused was stored")
        // The same type passes, whatever is inside; a flag no other provider defines takes any type.
        try tweaks.set(["columns": 1], feature: "checkout", variable: "layout")
        try tweaks.set(4, feature: "checkout", variable: "max_items")
        try tweaks.set(["x": [1, 2]], feature: "brand", variable: "new")
        #expect(try overrides.allTweaks().count == 3)
    }

    @Test func literalsAndCodableRoundTrips() throws {
        let value: JSONValue = ["a": [1, 2.5, "x", true], "b": [:]]
        let decoded = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
        #expect(decoded == value)
        #expect(value.typeName == "object" && value.objectValue != nil)
        #expect(JSONValue.array([]).typeName == "array")
        let withNull = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"a": null}"#.utf8))
        #expect(withNull == ["a": .null] && withNull.containsNull && !value.containsNull)
        #expect(JSONValue.double(1).acceptsType(of: .int(1)))
        #expect(!JSONValue.int(1).acceptsType(of: .double(1.5)))
    }
}
