import Foundation

/// Works out the journal steps that take the entries of the live home out into a folder (the old
/// container's `data`, or the trash) and bring a container's stashed entries in.
///
/// Whole top-level entries are renamed. With exclude rules, a folder is descended into only when
/// something inside it is excluded: its other entries are moved one by one and the folder itself (a
/// "skeleton" holding the excluded entries) stays. Without rules, nothing below the top level is ever
/// looked at, so the cost of a switch does not depend on how many files the home holds. (A suffix rule
/// can match at any depth, so with rules the live tree is listed — names only — to find the excluded
/// entries; folders without any are still moved with one rename.)
///
/// Moving in, a stashed entry whose place in the live home is taken by an excluded entry is not lost:
/// it goes to the container's `hidden` folder and comes back when its place is free on a later
/// activation. So a container's `data` folder is always empty while it is active.
struct SwitchPlanner {
    private enum Occupant {
        /// A live folder that stays because it holds excluded entries.
        case skeleton
        /// An excluded live entry (or the bookkeeping).
        case kept
        /// An entry moved in from `source` (relative to the home).
        case movedIn(source: String, isDirectory: Bool)
    }

    let layout: HomeLayout
    let rules: ExcludeRules
    private(set) var steps: [Journal.Step] = []
    /// What will be at each live path (relative) once the move-out is done, besides the moved-in entries.
    private var occupied: [String: Occupant] = [:]
    /// Paths inside the incoming container's `hidden` folder that will still hold entries.
    private var hiddenRemaining: Set<String> = []
    /// Paths of `hidden` that steps empty: entries moved in, folders removed once emptied.
    private var vacatedHiddenPaths: Set<String> = []
    /// Folders of `hidden` that steps already make.
    private var madeHiddenFolders: Set<String> = []

    init(layout: HomeLayout, rules: ExcludeRules) {
        self.layout = layout
        self.rules = rules
        occupied[HomeLayout.bookkeepingName] = .kept
        occupied[HomeLayout.removedBookkeepingName] = .kept
    }

    // MARK: Moving out

    /// Plans moving every entry of the live home, except the bookkeeping and excluded entries, into the
    /// folder `destination` (relative to the home), which must be empty or absent.
    mutating func planMoveOut(into destination: String, owner: String) throws {
        let absoluteDestination = layout.absolute(destination)
        if let kind = try FileSystem.kind(at: absoluteDestination) {
            guard kind == .directory else {
                throw ContainerError.conflict(path: absoluteDestination, reason: "should be the stash folder of \(owner) but is not a folder")
            }
            if let leftover = try FileSystem.list(absoluteDestination).first {
                throw ContainerError.conflict(
                    path: absoluteDestination + "/" + leftover.name,
                    reason: "is in the stash folder of \(owner), which must be empty while \(owner) is active")
            }
        } else {
            steps.append(.makeDirectory(path: destination, mode: 0o700))
        }
        steps += try moveOutSteps(folder: "", components: [], destination: destination).steps
    }

    /// The steps for one live folder, and whether anything in it stays in the live home.
    private mutating func moveOutSteps(
        folder: String, components: [String], destination: String
    ) throws -> (steps: [Journal.Step], keepsSomething: Bool) {
        var steps: [Journal.Step] = []
        var keepsSomething = false
        for entry in try FileSystem.list(layout.absolute(folder)) {
            let path = joinPath(folder, entry.name)
            if folder.isEmpty, HomeLayout.isReserved(topLevelName: entry.name) { continue }
            let entryComponents = components + [entry.name]
            if rules.matches(entryComponents) {
                occupied[path] = .kept
                keepsSomething = true
                continue
            }
            if !rules.isEmpty, entry.kind == .directory {
                let inner = try moveOutSteps(folder: path, components: entryComponents, destination: destination)
                if inner.keepsSomething {
                    occupied[path] = .skeleton
                    keepsSomething = true
                    // The folder stays; the stash gets one only to hold entries moved out of it.
                    if !inner.steps.isEmpty {
                        steps.append(.makeDirectory(path: joinPath(destination, path), mode: try mode(of: path)))
                        steps += inner.steps
                    }
                    continue
                }
            }
            steps.append(.move(from: path, to: joinPath(destination, path)))
        }
        return (steps, keepsSomething)
    }

    private func mode(of relativePath: String) throws -> UInt32 {
        let path = layout.absolute(relativePath)
        guard let info = try FileSystem.status(at: path) else {
            throw ContainerError.io(path: path, underlying: SystemCallError("lstat", code: ENOENT))
        }
        return UInt32(info.st_mode) & 0o7777
    }

    // MARK: Moving in

    /// Plans bringing the stashed entries of the container `uuid` into the live home: first those it had
    /// hidden (their place may be free now), then its data. Call after ``planMoveOut(into:owner:)``.
    mutating func planMoveIn(of uuid: UUID) throws {
        let hidden = HomeLayout.hiddenFolder(uuid)
        let data = HomeLayout.dataFolder(uuid)
        if try FileSystem.kind(at: layout.absolute(hidden)) == .directory {
            try moveIn(source: hidden, live: "", hiddenRoot: hidden, isHidden: true)
        }
        if try FileSystem.kind(at: layout.absolute(data)) == .directory {
            try moveIn(source: data, live: "", hiddenRoot: hidden, isHidden: false)
        } else {
            steps.append(.makeDirectory(path: data, mode: 0o700))
        }
    }

    /// Plans moving the entries of the stashed folder `source` into the live folder `live`.
    ///
    /// - Parameter mergeSource: when `live` is a folder moved in earlier in this plan, where it comes
    ///   from, so that what it holds counts as taken.
    private mutating func moveIn(
        source: String, live: String, hiddenRoot: String, isHidden: Bool, mergeSource: String? = nil
    ) throws {
        for entry in try FileSystem.list(layout.absolute(source)) {
            let from = joinPath(source, entry.name)
            let to = joinPath(live, entry.name)
            var occupant = occupied[to]
            if occupant == nil, let mergeSource {
                let incoming = joinPath(mergeSource, entry.name)
                if let kind = try FileSystem.kind(at: layout.absolute(incoming)) {
                    occupant = .movedIn(source: incoming, isDirectory: kind == .directory)
                }
            }
            switch occupant {
            case nil:
                steps.append(.move(from: from, to: to))
                occupied[to] = .movedIn(source: from, isDirectory: entry.kind == .directory)
                if isHidden { vacatedHiddenPaths.insert(to) }
            case .skeleton? where entry.kind == .directory:
                try moveIn(source: from, live: to, hiddenRoot: hiddenRoot, isHidden: isHidden)
                steps.append(.removeDirectoryIfEmpty(path: from, mode: try mode(of: from)))
                if isHidden { vacatedHiddenPaths.insert(to) }
            case .movedIn(let incoming, true)? where entry.kind == .directory:
                // A hidden folder came back to this place: merge the stashed one into it.
                try moveIn(source: from, live: to, hiddenRoot: hiddenRoot, isHidden: isHidden, mergeSource: incoming)
                steps.append(.removeDirectoryIfEmpty(path: from, mode: try mode(of: from)))
            default:
                if isHidden {
                    hiddenRemaining.insert(to) // stays hidden
                } else {
                    try hide(from: from, livePath: to, hiddenRoot: hiddenRoot)
                }
            }
        }
    }

    /// Moves a stashed entry whose live place is taken into the same place under `hidden`.
    private mutating func hide(from: String, livePath: String, hiddenRoot: String) throws {
        let taken = hiddenRemaining.contains(livePath)
            || hiddenRemaining.contains { livePath.hasPrefix($0 + "/") || $0.hasPrefix(livePath + "/") }
        if taken {
            throw ContainerError.conflict(
                path: layout.absolute(joinPath(hiddenRoot, livePath)),
                reason: "already holds a hidden copy of '\(livePath)', and the container's stash holds another one whose place in the home is taken by an excluded entry")
        }
        try makeHiddenFolder("", hiddenRoot: hiddenRoot)
        var folder = ""
        for component in PathComponents.of(livePath, omittingEmpty: true).dropLast() {
            folder = joinPath(folder, component)
            try makeHiddenFolder(folder, hiddenRoot: hiddenRoot)
        }
        steps.append(.move(from: from, to: joinPath(hiddenRoot, livePath)))
        hiddenRemaining.insert(livePath)
    }

    /// Adds a step making the folder `folder` of `hidden` unless it will exist anyway.
    private mutating func makeHiddenFolder(_ folder: String, hiddenRoot: String) throws {
        if madeHiddenFolders.contains(folder) { return }
        let path = folder.isEmpty ? hiddenRoot : joinPath(hiddenRoot, folder)
        if try FileSystem.kind(at: layout.absolute(path)) == .directory, !vacatedHiddenPaths.contains(folder) { return }
        // The hidden root is bookkeeping; a folder inside it may move into the home as a whole one day,
        // so it takes the mode of the live folder it stands for.
        var mode: UInt32 = folder.isEmpty ? 0o700 : 0o755
        if !folder.isEmpty, let live = try FileSystem.status(at: layout.absolute(folder)),
           FileSystem.kind(ofMode: live.st_mode) == .directory {
            mode = UInt32(live.st_mode) & 0o7777
        }
        steps.append(.makeDirectory(path: path, mode: mode))
        madeHiddenFolders.insert(folder)
    }
}
