/// The evaluation context of a flag lookup, as OpenFeature has it: who is asking (the targeting key,
/// usually a user or device id) and what is known about them (attributes of any JSON type: a country,
/// an app version, a plan).
///
/// Providers with targeting rules (``FlagdTweakProvider``, a Lua provider whose `get` takes a third
/// argument) answer by it; the others ignore it. Contexts are merged in OpenFeature's order, each
/// winning over the one before: the manager's ``TweakManager/context`` (global), the task's
/// ``TweakContext/current``, the lookup's own.
public struct TweakContext: Sendable, Hashable {
    /// The name OpenFeature and OFREP give the targeting key in a context's JSON.
    package static let targetingKeyField = "targetingKey"

    /// Who the flag is evaluated for; nil when not known.
    public var targetingKey: String?
    /// Everything else known about them, by name: any JSON value, null included (an attribute set to
    /// null hides a lower context's attribute of that name when contexts are merged; the JSON readers
    /// leave a top-level null field out instead).
    public var attributes: [String: JSONValue]

    /// A context of `targetingKey` and `attributes`.
    public init(targetingKey: String? = nil, attributes: [String: JSONValue] = [:]) {
        self.targetingKey = targetingKey
        self.attributes = attributes
    }

    /// The empty context: no targeting key, no attributes.
    public static let empty = TweakContext()

    /// Whether the context holds nothing.
    public var isEmpty: Bool { targetingKey == nil && attributes.isEmpty }

    /// This context over `lower`: its targeting key when it has one, else `lower`'s; its attributes
    /// winning over `lower`'s of the same name.
    package func merged(over lower: TweakContext) -> TweakContext {
        if lower.isEmpty { return self }
        if isEmpty { return lower }
        return TweakContext(
            targetingKey: targetingKey ?? lower.targetingKey,
            attributes: lower.attributes.merging(attributes) { _, own in own })
    }

    /// The context as OpenFeature writes it in JSON: the attributes, and the targeting key as
    /// `targetingKey` (winning over an attribute of that name).
    package var jsonObject: [String: JSONValue] {
        var object = attributes
        if let targetingKey { object[Self.targetingKeyField] = .string(targetingKey) }
        return object
    }

    /// The context of a JSON object as OpenFeature writes it: `targetingKey` (a string) is the targeting
    /// key (a null one is no key), every other field an attribute.
    ///
    /// - Throws: ``TweakError/Code/invalidContext`` when `targetingKey` is not a string.
    public init(jsonObject: [String: JSONValue]) throws {
        var attributes = jsonObject
        let key = attributes.removeValue(forKey: Self.targetingKeyField)
        switch key {
        case nil, .null?: self.init(attributes: attributes)
        case .string(let text)?: self.init(targetingKey: text, attributes: attributes)
        case let other?:
            throw TweakError.invalidContext("its targetingKey is \(TweakError.withArticle(other.typeName)); it must be a string")
        }
    }
}
