import CLua

/// What one read of a value from Lua has met: the tables read so far (each is read once), the ones
/// being read (one met again inside itself is a cycle), and how many values the result stands for.
struct TableReading {
    /// The bound on values, counted with repeats, when the state has no memory cap: about 4 million
    /// (at least 64 MB of distinct values in Lua, and far more as Swift values or JSON).
    static let uncappedLimit = 1 << 22

    /// How many values (counted with repeats) the value read may stand for.
    let limit: Int
    /// Values counted so far, repeats included.
    private(set) var counted = 0
    /// The height of the value read last: 0 for anything but a table, 1 for a table of no table...
    /// A table met again brings its height, so that its depth below the new place is checked.
    var lastHeight = 0
    private var read: [UnsafeRawPointer: (table: LuaTable, size: Int, height: Int)] = [:]
    private var open: Set<UnsafeRawPointer> = []

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts `values` more; throws past the limit.
    mutating func count(_ values: Int) throws(LuaError) {
        counted += values
        if counted > limit {
            throw LuaError(.typeMismatch, message: "the table stands for more than \(limit) values, counting each repeated subtable every time it appears and a value for every 16 bytes of a string (a table that holds the same subtable or long string many times over, like t = {t, t} repeated, cannot be passed to the host)")
        }
    }

    /// The table at `identity` if it was read already (its values counted again), nil if it was not;
    /// throws if it is being read, a table that contains itself.
    mutating func known(_ identity: UnsafeRawPointer) throws(LuaError) -> LuaTable? {
        if open.contains(identity) {
            throw LuaError(.typeMismatch, message: "the table contains itself (a cycle cannot be passed to the host)")
        }
        guard let entry = read[identity] else { return nil }
        try count(entry.size)
        lastHeight = entry.height
        return entry.table
    }

    mutating func begin(_ identity: UnsafeRawPointer) {
        open.insert(identity)
    }

    /// `table` has been read: it holds `size` values (keys included), counted with repeats, and is
    /// `height` tables deep.
    mutating func end(_ identity: UnsafeRawPointer, table: LuaTable, size: Int, height: Int) {
        open.remove(identity)
        read[identity] = (table, size, height)
    }
}
