extension TweakContext {
    /// An attribute's value: any JSON value, null included.
    @available(*, deprecated, renamed: "JSONValue")
    public typealias Value = JSONValue
}
