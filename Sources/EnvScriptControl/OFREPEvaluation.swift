import Tweaks

/// One flag evaluated for OFREP (the OpenFeature Remote Evaluation Protocol): the answer of
/// `POST /ofrep/v1/evaluate/flags/{key}`, and one entry of the bulk answer.
///
/// Shaped for OpenFeature's OFREP clients: every success carries `reason` and `variant`, null when
/// there is none. OFREP's document has `variant` a string or nothing (flagd leaves it out of a
/// disabled flag's answer), but OpenFeature's Python provider (0.3) reads an answer without the key as
/// an error: every override and every flag of a JSON file, which have no variants, would then answer
/// the caller's default. `value` is left out when the caller's default applies (a disabled flag, no default variant), since a null value is read as a
/// type mismatch; doubles keep their fraction (`JSONValue/jsonText`); a failure is
/// `{key, errorCode, errorDetails}` with the status OFREP gives it (404 for a flag not found, 400 for
/// the others the flag's definition or the context cause, 500 for the rest).
struct OFREPEvaluation: Sendable {
    /// The flag's key, as the request named it.
    let key: String
    let outcome: Outcome

    enum Outcome: Sendable {
        case resolved(value: JSONValue?, reason: TweakReason, variant: String?, metadata: [String: JSONValue])
        case failed(status: Int, code: TweakErrorCode, details: String)
    }

    /// The flag `key` evaluated through `tweaks`' whole stack in `context`.
    init(key: String, tweaks: TweakManager, context: TweakContext) {
        self.key = key
        let flag = TweakKey(flagKey: key)
        do {
            let tweak = try tweaks.lookup(feature: flag.feature, variable: flag.variable, context: context).tweak
            outcome = .resolved(value: tweak.value, reason: tweak.reason, variant: tweak.variant, metadata: tweak.metadata)
        } catch let error as TweakError {
            outcome = Self.outcome(of: error)
        } catch {
            outcome = .failed(status: 500, code: .general, details: "\(error)")
        }
    }

    /// The answer to a request whose context is not one (`INVALID_CONTEXT`, 400).
    init(key: String, invalidContext problem: String) {
        self.key = key
        outcome = .failed(status: 400, code: .invalidContext, details: problem)
    }

    private static func outcome(of error: TweakError) -> Outcome {
        if let answer = error.defaultAnswer {
            guard let code = answer.errorCode else {
                return .resolved(value: nil, reason: answer.reason, variant: nil, metadata: answer.metadata)
            }
            return .failed(status: 400, code: code, details: answer.errorMessage ?? error.message)
        }
        let resolution = TweakManager.resolution((), failure: error)
        let code = resolution.errorCode ?? .general
        let status = switch code {
        case .flagNotFound: 404
        case .general: 500
        default: 400
        }
        return .failed(status: status, code: code, details: error.message)
    }

    /// The HTTP status of the single-flag answer.
    var status: Int {
        if case .failed(let status, _, _) = outcome { status } else { 200 }
    }

    /// The answer's JSON object.
    var json: String {
        var text = "{"
        func field(_ name: String, _ write: (inout String) -> Void) {
            if text.count > 1 { text += "," }
            JSONValue.writeJSONString(name, into: &text)
            text += ":"
            write(&text)
        }
        field("key") { JSONValue.writeJSONString(key, into: &$0) }
        switch outcome {
        case .resolved(let value, let reason, let variant, let metadata):
            if let value { field("value") { value.writeJSON(into: &$0) } }
            field("reason") { JSONValue.writeJSONString(reason.rawValue, into: &$0) }
            field("variant") { text in
                if let variant { JSONValue.writeJSONString(variant, into: &text) } else { text += "null" }
            }
            field("metadata") { JSONValue.object(metadata).writeJSON(into: &$0) }
        case .failed(_, let code, let details):
            field("errorCode") { JSONValue.writeJSONString(code.rawValue, into: &$0) }
            field("errorDetails") { JSONValue.writeJSONString(details, into: &$0) }
        }
        return text + "}"
    }
}
