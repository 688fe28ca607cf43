import Foundation
import TestSupport
import Testing

/// Every Swift listing of the guides (the DocC catalogs and the README) compiles against the libraries
/// as they are, in Swift 6 language mode: a renamed API, a missing `try` or a type that is not
/// `Sendable` enough fails here, with the guide's file and line, instead of in a reader's app. Each guide
/// is one program (see ``GuideListing``), after its prelude in `Tests/GuidePreludes/<guide>.swift`:
/// what the guide takes for granted (a `home` folder, the reader's own types).
@Suite(.timeLimit(.minutes(10))) struct GuideListingTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The guides with Swift listings: every Markdown file of a DocC catalog, and the README.
    static var guides: [URL] {
        let files = FileManager.default
        let sources = packageRoot.appendingPathComponent("Sources")
        var found = [packageRoot.appendingPathComponent("README.md")]
        for module in (try? files.contentsOfDirectory(atPath: sources.path)) ?? [] {
            let catalog = sources.appendingPathComponent(module).appendingPathComponent("\(module).docc")
            for name in (try? files.contentsOfDirectory(atPath: catalog.path)) ?? [] where name.hasSuffix(".md") {
                found.append(catalog.appendingPathComponent(name))
            }
        }
        return found.sorted { $0.path < $1.path }
    }

    @Test(arguments: guides) func theGuidesListingsCompile(guide: URL) throws {
        let listing = try GuideListing(guide: guide)
        guard listing.listingCount > 0 else { return }
        let name = guide.deletingPathExtension().lastPathComponent
        let preludeFile = Self.packageRoot.appendingPathComponent("Tests/GuidePreludes/\(name).swift")
        let prelude = (try? String(contentsOf: preludeFile, encoding: .utf8)) ?? ""
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let program = folder.url.appendingPathComponent("\(name).swift")
        try listing.program(prelude: prelude).write(to: program, atomically: true, encoding: .utf8)
        let outcome = try SwiftTypeCheck.run(program)
        #expect(outcome.status == 0, "\(guide.lastPathComponent)'s listings do not compile:\n\(outcome.standardError)")
    }

    /// The guides that have listings are found: the check cannot pass by finding none.
    @Test func theGuidesWithListingsAreFound() throws {
        let counts = try Self.guides.map { try GuideListing(guide: $0).listingCount }
        #expect(counts.filter { $0 > 0 }.count >= 9, "\(zip(Self.guides.map(\.lastPathComponent), counts))")
    }
}
