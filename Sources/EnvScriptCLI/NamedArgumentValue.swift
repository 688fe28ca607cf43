import ArgumentParser

/// A value of an option that is one of a few names (`--allow io`, `--format tap`).
///
/// ArgumentParser's defaults for such enums spell every name through string interpolation each time
/// it builds a command's arguments, which costs a tenth of `envscript run hello.lua`'s start-up; these
/// read the raw value instead.
protocol NamedArgumentValue: CaseIterable, RawRepresentable<String>, ExpressibleByArgument {}

extension NamedArgumentValue {
    static var allValueStrings: [String] { allCases.map(\.rawValue) }
    /// The names explain themselves: no list of descriptions in help.
    static var allValueDescriptions: [String: String] { [:] }
    var defaultValueDescription: String { rawValue }
}
