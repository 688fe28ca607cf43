import Foundation

/// Prints `value` as pretty JSON with sorted keys.
func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// Prints rows under a header, in columns padded to their widest cell as a terminal shows it
/// (``DisplayWidth``: wide characters and emoji take two columns, combining marks none).
func printTable(header: [String], rows: [[String]]) {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
    for row in all {
        let cells = row.enumerated().map { index, cell in
            index == row.count - 1 ? cell : DisplayWidth.padded(cell, to: widths[index])
        }
        print(cells.joined(separator: "  "))
    }
}
