import CLineEditor
import Foundation

/// Reads lines from the terminal with libedit (``CLineEditor``): editing keys, a history walked with
/// the arrow keys, Tab completion, and Ctrl-C abandoning the line being typed. On a pipe it reads
/// plain lines.
final class LineEditor {
    /// What one read came to.
    enum Input: Equatable {
        case line(String)
        /// Ctrl-C: the line was abandoned.
        case interrupted
        /// Ctrl-D on an empty line, or the end of the input.
        case end
    }

    /// The words that complete a word; kept alive for the C side, which holds it unretained.
    private final class Completer {
        let candidates: (String) -> [String]
        init(_ candidates: @escaping (String) -> [String]) { self.candidates = candidates }
    }

    private let editor: OpaquePointer
    private let completer: Completer

    /// An editor on standard input and output; `completions` gives the words that complete a word.
    init(program: String, completions: @escaping (String) -> [String]) throws {
        completer = Completer(completions)
        let context = Unmanaged.passUnretained(completer).toOpaque()
        guard let editor = le_open(program, { context, word, count in
            guard let context, let word else { return nil }
            let completer = Unmanaged<Completer>.fromOpaque(context).takeUnretainedValue()
            let words = completer.candidates(String(cString: word))
            count?.pointee = words.count
            guard !words.isEmpty,
                  let array = malloc(words.count * MemoryLayout<UnsafeMutablePointer<CChar>?>.stride)?
                    .bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: words.count)
            else {
                count?.pointee = 0
                return nil
            }
            for (index, candidate) in words.enumerated() { array[index] = strdup(candidate) }
            return array
        }, context) else {
            throw CommandFailure(message: "cannot start the line editor (libedit)", status: ExitStatus.failure)
        }
        self.editor = editor
    }

    deinit { le_close(editor) }

    /// Reads a line after `prompt`.
    func read(prompt: String) -> Input {
        var interrupted: Int32 = 0
        let line = le_read_line(editor, prompt, &interrupted)
        if interrupted != 0 { return .interrupted }
        guard let line else { return .end }
        return .line(String(cString: line))
    }

    /// Adds `entry` to the history the arrow keys walk.
    func remember(_ entry: String) {
        le_add_history(editor, entry)
    }
}
