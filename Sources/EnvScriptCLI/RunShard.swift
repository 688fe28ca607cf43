import ArgumentParser

/// `envscript run --shard K/N`: one of N parts of a suite's files, for a CI matrix of N machines.
///
/// The split is by file: the files in the order the run finds them (sorted, as discovery sorts them;
/// as named on the command line otherwise), the K-th of every N. It depends only on that list, so it
/// is the same on every machine and every run, and the N shards together run each file exactly once;
/// their sizes differ by one file at most. Shuffling (`--shuffle`) happens within a shard, after the
/// split.
struct RunShard: Equatable {
    /// From 1 to ``count``.
    var index: Int
    var count: Int

    /// Reads `K/N`, refusing anything else with a message that says what is expected.
    static func parse(_ argument: String) throws -> RunShard {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
              count >= 1, count <= 100_000, (1...count).contains(index) else {
            throw ValidationError("--shard takes K/N, the K-th of N shards (1/3, 2/3 and 3/3 together run every file once), not '\(argument)'")
        }
        return RunShard(index: index, count: count)
    }

    /// The files of this shard, in their order.
    func files(of all: [String]) -> [String] {
        all.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }
}
