import Foundation
import Testing
@testable import Containers

@Suite struct ExcludeRuleTests {
    @Test func aRuleMatchesWholeComponentsOnly() {
        let rules = ExcludeRules(["a.plist"])
        #expect(rules.matches(["a.plist"]))
        #expect(rules.matches(["x", "a.plist"]))
        #expect(rules.matches(["x", "y", "a.plist"]))
        #expect(!rules.matches(["data.plist"]))
        #expect(!rules.matches(["x", "data.plist"]))
        #expect(!rules.matches(["a.plist", "inside"]))
        #expect(!rules.matches(["a.plist.bak"]))
    }

    @Test func aMultiComponentRuleMatchesThatPathSuffix() {
        let rules = ExcludeRules(["Library/Preferences/x.plist"])
        #expect(rules.matches(["Library", "Preferences", "x.plist"]))
        #expect(rules.matches(["data", "Library", "Preferences", "x.plist"]))
        #expect(!rules.matches(["Preferences", "x.plist"]))
        #expect(!rules.matches(["MyLibrary", "Preferences", "x.plist"]))
        #expect(!rules.matches(["Library", "Preferences", "xx.plist"]))
    }

    @Test func leadingSlashesDotsAndEmptyRulesAreIgnored() {
        #expect(ExcludeRules(["/a.plist", "./b//c", "", "/"]).rules == [["a.plist"], ["b", "c"]])
        #expect(ExcludeRules(["", "/"]).isEmpty)
    }

    /// The home used by the switching tests below.
    private static let original = [
        "a.plist": "default a", "data.plist": "default data", "x/a.plist": "default x/a", "x/other": "default x/other",
        "Library/Preferences/x.plist": "default x", "Library/Preferences/y.plist": "default y",
        "Library/Caches/c": "default cache", "top.txt": "default top",
    ]

    @Test func excludedFilesStayInTheLiveHomeAcrossSwitches() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.write(Self.original)
        let containers = try AppContainer(home: home.url)
        containers.customExcludeFiles = ["a.plist", "Library/Preferences/x.plist"]
        let b = try containers.createNewContainer(name: "B")
        try containers.activate(container: b)

        let kept = ["a.plist": "default a", "x/a.plist": "default x/a", "Library/Preferences/x.plist": "default x"]
        expectTree(try home.snapshot(), TemporaryHome.tree(kept))
        let defaultContainer = try containers.resolve("DEFAULT")
        expectTree(try home.stash(of: defaultContainer), TemporaryHome.tree([
            "data.plist": "default data", "x/other": "default x/other",
            "Library/Preferences/y.plist": "default y", "Library/Caches/c": "default cache", "top.txt": "default top",
        ]))

        // Excluded files are shared: a change made in B is seen in DEFAULT.
        try home.write(["a.plist": "changed in B", "Library/Preferences/new.plist": "b only", "data.plist": "b data"])
        try containers.activate(container: defaultContainer)
        var expected = Self.original
        expected["a.plist"] = "changed in B"
        expectTree(try home.snapshot(), TemporaryHome.tree(expected))
        expectTree(try home.stash(of: b), TemporaryHome.tree(["Library/Preferences/new.plist": "b only", "data.plist": "b data"]))

        try containers.activate(container: b)
        expectTree(try home.snapshot(), TemporaryHome.tree([
            "a.plist": "changed in B", "x/a.plist": "default x/a", "Library/Preferences/x.plist": "default x",
            "Library/Preferences/new.plist": "b only", "data.plist": "b data",
        ]))
    }

    @Test func aRuleNamingAFolderKeepsTheWholeFolder() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.write(["Library/Caches/one": "1", "Library/Caches/deep/two": "2", "Library/Other": "o"])
        let containers = try AppContainer(home: home.url)
        containers.customExcludeFiles = ["Caches"]
        try containers.activate(container: containers.createNewContainer(name: "B"))
        expectTree(try home.snapshot(), TemporaryHome.tree(["Library/Caches/one": "1", "Library/Caches/deep/two": "2"]))
    }

    @Test func aStashedCopyOfAnExcludedPathIsHiddenNotLostAndComesBackWhenFree() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.write(["a.plist": "default a", "Library/a.plist": "default nested"])
        let containers = try AppContainer(home: home.url)
        let b = try containers.createNewContainer(name: "B")
        try containers.activate(container: b)
        try home.write(["a.plist": "b a", "Library/a.plist": "b nested", "Library/b.txt": "b"])
        try containers.activate(container: containers.resolve("DEFAULT"))

        // With the rule, DEFAULT's excluded files stay; B's own copies cannot take their place.
        containers.customExcludeFiles = ["a.plist"]
        try containers.activate(container: b)
        expectTree(try home.snapshot(), TemporaryHome.tree([
            "a.plist": "default a", "Library/a.plist": "default nested", "Library/b.txt": "b",
        ]))
        try containers.activate(container: containers.resolve("DEFAULT"))
        try containers.activate(container: b)
        #expect(try home.read("a.plist") == "default a")

        // Without the rule, the live copies belong to the active container (B) again... and B's hidden
        // ones come back once their place is free.
        try containers.activate(container: containers.resolve("DEFAULT"))
        containers.customExcludeFiles = []
        let defaultContainer = try containers.resolve("DEFAULT")
        try containers.activate(container: b)
        expectTree(try home.snapshot(), TemporaryHome.tree([
            "a.plist": "b a", "Library/a.plist": "b nested", "Library/b.txt": "b",
        ]))
        expectTree(try home.stash(of: defaultContainer), TemporaryHome.tree([
            "a.plist": "default a", "Library/a.plist": "default nested",
        ]))
    }

    @Test func cleanAndCloneLeaveExcludedFilesOut() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.write(["keep.plist": "k", "Library/keep.plist": "lk", "Library/mine": "m", "mine.txt": "m"])
        let containers = try AppContainer(home: home.url)
        containers.customExcludeFiles = ["keep.plist"]
        let copy = try containers.clone(container: containers.activeContainer, name: "copy")
        expectTree(try home.stash(of: copy), TemporaryHome.tree(["Library/mine": "m", "mine.txt": "m"]))
        try containers.clean(container: containers.activeContainer)
        expectTree(try home.snapshot(), TemporaryHome.tree(["keep.plist": "k", "Library/keep.plist": "lk"]))
    }
}
