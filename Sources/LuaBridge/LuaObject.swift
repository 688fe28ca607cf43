/// A Swift object that travels through Lua as a full userdata.
///
/// The userdata retains the object until Lua collects it. Its metatable is the one registered for
/// ``typeName`` with ``LuaState/defineObjectType(_:methods:)`` (methods reached with `obj:method()`),
/// so `type(obj)` is `"userdata"` and errors name the type.
public struct LuaObject: Hashable {
    /// The Swift object.
    public let object: AnyObject
    /// The name of its metatable (its Lua type name).
    public let typeName: String

    /// Wraps an object for Lua under a type name.
    public init(_ object: AnyObject, typeName: String) {
        self.object = object
        self.typeName = typeName
    }

    public static func == (lhs: LuaObject, rhs: LuaObject) -> Bool { lhs.object === rhs.object }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(object)) }
}
