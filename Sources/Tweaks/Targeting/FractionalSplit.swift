/// flagd's `fractional` operator: splits the population into buckets by weight and gives the bucket's
/// variant, the same for the same bucketing value every time and in every flagd implementation.
///
/// The arguments (already evaluated) are an optional bucketing value and buckets `[variant, weight]`
/// (`weight` a whole number, 1 when left out, clamped at 0 when negative). Without a bucketing value (the
/// first argument is a bucket: the shorthand) the value is `[$flagd.flagKey, targetingKey]`. The value is
/// written in canonical CBOR (``CanonicalCBOR``) and hashed with MurmurHash3 (32 bits, seed 0); the
/// bucket is the hash times the sum of the weights, shifted right by 32 bits, so each bucket gets its
/// share exactly. Null when it cannot split: no bucketing value (a null, or a shorthand without a
/// targeting key that is non-empty text), a bucket that is not `[variant]` or `[variant, whole number]`,
/// or a sum of weights that is not in 1...2^31-1.
enum FractionalSplit {
    private static let flagKeyPath = VariablePath("$flagd.flagKey")
    private static let targetingKeyPath = VariablePath(TweakContext.targetingKeyField)

    /// The chosen variant for `arguments`, or null.
    static func choose(_ arguments: [JSONValue], data: LogicData) -> JSONValue {
        guard let first = arguments.first else { return .null }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        let buckets: ArraySlice<JSONValue>
        if case .array = first {
            guard case .string(let targetingKey)? = data.value(at: targetingKeyPath), !targetingKey.isEmpty else { return .null }
            let flagKey: String
            if case .string(let key)? = data.value(at: flagKeyPath) { flagKey = key } else { flagKey = "" }
            CanonicalCBOR.appendArrayHead(count: 2, to: &bytes)
            CanonicalCBOR.appendString(flagKey, to: &bytes)
            CanonicalCBOR.appendString(targetingKey, to: &bytes)
            buckets = arguments[...]
        } else {
            guard first != .null else { return .null }
            CanonicalCBOR.append(first, to: &bytes)
            buckets = arguments.dropFirst()
        }
        var totalWeight: UInt64 = 0
        for bucket in buckets {
            guard let weight = weight(of: bucket) else { return .null }
            totalWeight += weight
            guard totalWeight <= UInt64(Int32.max) else { return .null }
        }
        guard totalWeight > 0 else { return .null }
        let hash = MurmurHash3.hash32(bytes)
        let point = (UInt64(hash) * totalWeight) >> 32
        var end: UInt64 = 0
        for bucket in buckets {
            // Both checked above.
            end += weight(of: bucket) ?? 0
            if point < end, case .array(let parts) = bucket { return parts[0] }
        }
        return .null
    }

    /// A bucket's weight: 1 for `[variant]`, the whole number of `[variant, weight]` (0 when negative);
    /// nil for anything else.
    private static func weight(of bucket: JSONValue) -> UInt64? {
        guard case .array(let parts) = bucket, (1...2).contains(parts.count) else { return nil }
        guard parts.count == 2 else { return 1 }
        guard case .double(let number) = parts[1], number.rounded() == number, number.isFinite else { return nil }
        return number <= 0 ? 0 : UInt64(Swift.min(number, Double(UInt32.max)))
    }
}
