package import Foundation

/// The two files generated for one tweaks file: `<accessorName>.swift` and `<accessorName>+Constants.swift`.
package struct GeneratedAccessors: Sendable, Hashable {
    /// The type with one typed property per tweak.
    package var accessor: GeneratedFile
    /// The extension with the `Features` and `Variables` string constants.
    package var constants: GeneratedFile

    /// Creates the pair.
    package init(accessor: GeneratedFile, constants: GeneratedFile) {
        self.accessor = accessor
        self.constants = constants
    }

    /// Both files, the accessor first.
    package var files: [GeneratedFile] { [accessor, constants] }

    /// Writes both files into `directory` (created if missing), each only if its contents changed, so
    /// an unchanged tweaks file does not make the code that uses the accessor rebuild. Files of other
    /// names already in `directory` are left alone.
    ///
    /// - Throws: ``AccessorGenerationError`` of kind `writeFailed`.
    @discardableResult
    package func write(to directory: URL) throws -> [GeneratedFile.WriteResult] {
        try files.map { try $0.write(to: directory) }
    }
}
