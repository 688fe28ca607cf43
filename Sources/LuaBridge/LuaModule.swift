/// A host module that scripts load with `require(name)`, found before any `.lua` file.
///
/// Its functions report errors under their qualified names (`bad argument #1 to 'container.get'`).
public struct LuaModule {
    /// The name scripts require.
    public let name: String
    /// The members, in the order they were added.
    public private(set) var members: [(name: String, value: Member)] = []

    /// What a module member is.
    public enum Member {
        /// A Swift function scripts call.
        case function(LuaFunction)
        /// A value, such as a constant or a table of them.
        case value(LuaValue)
    }

    /// An empty module.
    public init(_ name: String) {
        self.name = name
    }

    /// Adds a function with a raw body.
    public mutating func function(_ member: String, body: @escaping (LuaCall) throws -> Int32) {
        members.append((member, .function(LuaFunction("\(name).\(member)", body: body))))
    }

    /// Adds a function made from its qualified name (`module.member`), typically a typed one:
    /// `module.function("set") { LuaFunction($0) { (feature: String, value: Int) in value } }`.
    public mutating func function(_ member: String, _ make: (_ qualifiedName: String) -> LuaFunction) {
        members.append((member, .function(make("\(name).\(member)"))))
    }

    /// Adds a plain value.
    public mutating func value(_ member: String, _ value: LuaValue) {
        members.append((member, .value(value)))
    }
}
