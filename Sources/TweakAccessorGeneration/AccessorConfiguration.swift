/// How accessors are generated: the configuration file (`config.json` in JustTweak) as a value.
///
/// The file is a JSON object; only `accessorName` is required, so JustTweak's files work as they are:
///
/// ```json
/// {
///   "accessorName": "GeneratedTweakAccessor",
///   "accessLevel": "public",
///   "kind": "class",
///   "swiftVersion": "6",
///   "managerPropertyName": "tweakManager",
///   "imports": ["Tweaks"],
///   "requiredFields": ["Title", "Group"],
///   "types": { "checkout.layout": "CheckoutLayout" }
/// }
/// ```
///
/// | key | value | default |
/// | --- | --- | --- |
/// | `accessorName` | the type to generate, a Swift identifier; also names the files | required |
/// | `accessLevel` | `"internal"`, `"package"` or `"public"`, for the type and all its members | `"internal"` |
/// | `kind` | `"class"` (a final class) or `"struct"` | `"class"` |
/// | `swiftVersion` | the language mode of the module compiling the code, `"5"` or `"6"` (a string or number; minor versions allowed); from 6 on the type is declared `Sendable` | `"6"` |
/// | `managerPropertyName` | the name of the stored `TweakManager` | `"tweakManager"` |
/// | `imports` | modules to import, one of which must provide `TweakManager` (for example `EnvScript`); imported at the accessor's access level | `["Tweaks"]` |
/// | `requiredFields` | fields every tweak must have: any of `"Title"`, `"Description"`, `"Group"`, `"GeneratedPropertyName"` (`"Value"` is always required) | `[]` |
/// | `types` | flags (`"feature.variable"`) read as a Swift type of yours, `Decodable` and `Sendable` (a struct for an object, an enum for a string...): the accessor decodes the value and is optional | `{}` |
///
/// Any other key is an error, so a misspelt key is not silently ignored. See ``load(from:)``.
package struct AccessorConfiguration: Sendable, Hashable {
    /// The access level of the generated type and its members.
    package enum AccessLevel: String, Sendable, Hashable, CaseIterable {
        /// `internal` (no keyword is written).
        case `internal`
        /// `package`.
        case package
        /// `public`.
        case `public`
    }

    /// What the generated type is.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A `final class`, as in JustTweak.
        case `class`
        /// A `struct`.
        case `struct`
    }

    /// A field of a tweak that ``AccessorConfiguration/requiredFields`` can demand.
    package enum Field: String, Sendable, Hashable, CaseIterable, Comparable {
        /// `"Title"`.
        case title = "Title"
        /// `"Description"`.
        case description = "Description"
        /// `"Group"`.
        case group = "Group"
        /// `"GeneratedPropertyName"`.
        case generatedPropertyName = "GeneratedPropertyName"

        /// Orders by the field's name.
        package static func < (lhs: Field, rhs: Field) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The type to generate; the files are `<accessorName>.swift` and `<accessorName>+Constants.swift`.
    package var accessorName: String
    /// The access level of the type and its members.
    package var accessLevel: AccessLevel
    /// A class or a struct.
    package var kind: Kind
    /// The major language mode of the module compiling the code (5 or 6); from 6 on the type is `Sendable`.
    package var swiftLanguageMode: Int
    /// The name of the stored `TweakManager` (the initializer's argument is `init(with:)`).
    package var managerPropertyName: String
    /// The modules imported by the accessor file.
    package var imports: [String]
    /// The fields every tweak must have, besides `Value`.
    package var requiredFields: Set<Field>
    /// Flags read as a Swift type of the module's: `"feature.variable"` to a `Decodable` type name such as
    /// `CheckoutLayout` or `Shop.Layout`.
    package var types: [String: String]

    /// Creates a configuration; check it with ``validate(file:)`` (``load(from:)`` does).
    package init(
        accessorName: String, accessLevel: AccessLevel = .internal, kind: Kind = .class, swiftLanguageMode: Int = 6,
        managerPropertyName: String = "tweakManager", imports: [String] = ["Tweaks"], requiredFields: Set<Field> = [],
        types: [String: String] = [:]
    ) {
        self.accessorName = accessorName
        self.accessLevel = accessLevel
        self.kind = kind
        self.swiftLanguageMode = swiftLanguageMode
        self.managerPropertyName = managerPropertyName
        self.imports = imports
        self.requiredFields = requiredFields
        self.types = types
    }

    /// The name of the accessor file, `<accessorName>.swift`.
    package var accessorFileName: String { "\(accessorName).swift" }
    /// The name of the constants file, `<accessorName>+Constants.swift`.
    package var constantsFileName: String { "\(accessorName)+Constants.swift" }
}
