import ArgumentParser

/// A command whose last positional argument is a value that may be a negative number, as in
/// `tweak set checkout discount -5` or `tweak seal -0.5`.
protocol NegativeNumberValueCommand: ParsableCommand {
    /// The value as parsed.
    var value: String { get }
    /// The positional arguments before the value, as parsed (`FEATURE VARIABLE` for `tweak set`).
    var argumentsBeforeValue: [String] { get }
}

/// Parsing that accepts a negative number where a command expects its value.
///
/// ArgumentParser reads every word that starts with `-` as an option, so `-5` is an unknown option and
/// `-0.5` a malformed one. When the command line does not parse as given and holds one such number
/// before any `--`, it is parsed again with the number moved after a `--` at the end, where it can only
/// be a positional argument. That reading is kept only when the number is the value of a
/// ``NegativeNumberValueCommand`` and stood in the value's place: the command line with the number's
/// minus sign dropped parses with the number as the value and the same arguments before it. Anything
/// else — a number meant for an option, such as `--timeout -5`, or for a feature — fails with the error
/// of the command line as given.
enum NegativeNumberValue {
    /// The command `arguments` (without the program's name) ask for.
    static func parse(_ arguments: [String]) throws -> any ParsableCommand {
        do {
            return try EnvScriptCommand.parseAsRoot(arguments)
        } catch {
            guard let index = soleNegativeNumber(in: arguments) else { throw error }
            let number = arguments[index]
            var moved = arguments
            moved.remove(at: index)
            moved += ["--", number]
            var unsigned = arguments
            unsigned[index] = String(number.dropFirst())
            guard let command = (try? EnvScriptCommand.parseAsRoot(moved)) as? any NegativeNumberValueCommand,
                  command.value == number,
                  let inPlace = (try? EnvScriptCommand.parseAsRoot(unsigned)) as? any NegativeNumberValueCommand,
                  inPlace.value == unsigned[index], inPlace.argumentsBeforeValue == command.argumentsBeforeValue
            else { throw error }
            return command
        }
    }

    /// The index of the only word before any `--` that is a negative number (`-5`, `-0.5`, `-.5`,
    /// `-1e3`), or nil when there is none or more than one.
    static func soleNegativeNumber(in arguments: [String]) -> Int? {
        let words = arguments.prefix { $0 != "--" }
        let numbers = words.indices.filter { isNegativeNumber(words[$0]) }
        return numbers.count == 1 ? numbers[0] : nil
    }

    /// Whether `word` is a minus sign followed by a decimal number.
    static func isNegativeNumber(_ word: String) -> Bool {
        let digits = word.dropFirst()
        guard word.hasPrefix("-"), let first = digits.first, first.isASCII, first.isNumber || first == "." else { return false }
        return Double(digits) != nil && digits.allSatisfy { $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }
    }
}
