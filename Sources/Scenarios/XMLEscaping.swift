/// Text made safe for XML 1.0 character data and attribute values: the five markup characters become
/// entities, line breaks and tabs in attributes become character references (so they survive
/// attribute normalisation), and the characters XML 1.0 cannot carry at all — most C0 controls, NUL
/// included, U+FFFE and U+FFFF (lone surrogates cannot occur in a Swift string) — show as `\u{…}`,
/// as in every report (``ReportText``), so the document is always well-formed and nothing is lost.
enum XMLEscaping {
    static func escaped(_ text: String, inAttribute: Bool = false) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += inAttribute ? "&quot;" : "\""
            case "'": result += inAttribute ? "&apos;" : "'"
            case "\n": result += inAttribute ? "&#10;" : "\n"
            case "\r": result += "&#13;"
            case "\t": result += inAttribute ? "&#9;" : "\t"
            default:
                if ReportText.isHidden(scalar) {
                    result += ReportText.visible(scalar)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
