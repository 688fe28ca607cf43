import Foundation
import Hummingbird
import Tweaks

extension ControlRoutes {
    /// `/ofrep/v1/evaluate/flags/{key}` and `/ofrep/v1/evaluate/flags`: OFREP, the protocol any
    /// OpenFeature SDK's OFREP provider speaks, answered through the host's whole stack (the overrides
    /// of the active container first) in the request's context. The bulk answer carries an `ETag`; a
    /// request whose `If-None-Match` names it is answered 304 without a body.
    static func registerOFREPRoutes<Context: RequestContext>(on router: Router<Context>, host: ControlHost) {
        router.post("/ofrep/v1/evaluate/flags/{key}") { request, context in
            await ControlResponse.handling {
                let key = try ControlResponse.parameter("key", of: context)
                let evaluationContext: TweakContext
                do {
                    evaluationContext = try await ofrepContext(of: request)
                } catch let error as ControlError {
                    return ofrepAnswer(OFREPEvaluation(key: key, invalidContext: error.message).json, status: 400)
                } catch is OFREPBodyTooLarge {
                    return OFREPBodyTooLarge.answer
                }
                let evaluation = try await host.run { host in
                    OFREPEvaluation(key: key, tweaks: host.tweaks, context: evaluationContext)
                }
                return ofrepAnswer(evaluation.json, status: evaluation.status)
            }
        }
        router.post("/ofrep/v1/evaluate/flags") { request, _ in
            await ControlResponse.handling {
                let evaluationContext: TweakContext
                do {
                    evaluationContext = try await ofrepContext(of: request)
                } catch let error as ControlError {
                    var failure = ""
                    JSONValue.writeJSONString(error.message, into: &failure)
                    return ofrepAnswer(#"{"errorCode":"INVALID_CONTEXT","errorDetails":"# + failure + "}", status: 400)
                } catch is OFREPBodyTooLarge {
                    return OFREPBodyTooLarge.answer
                }
                let body = try await bulkAnswer(host: host, context: evaluationContext)
                let tag = entityTag(of: body)
                if let asked = request.headers[.ifNoneMatch], entityTags(asked).contains(tag) {
                    return Response(status: .notModified, headers: [.eTag: tag])
                }
                var answer = ofrepAnswer(body, status: 200)
                answer.headers[.eTag] = tag
                return answer
            }
        }
    }

    /// The bulk answer: every flag of the stack in `context`, and the flag sets' metadata.
    ///
    /// Flags are evaluated a slice at a time, each slice under the host's lock for about a millisecond
    /// (``bulkSlice``): a stack whose Lua providers read the context and take their time over hundreds of
    /// flags keeps every other request of the host waiting no longer than one slice, not the whole answer.
    /// Should the flags change between slices (a switch, an override, a new stack), the answer is begun
    /// again, so that it never mixes two states of the host; the last of ``bulkAttempts`` is made under
    /// the lock at once.
    private static func bulkAnswer(host: ControlHost, context: TweakContext) async throws -> String {
        for _ in 1..<bulkAttempts {
            if let answer = try await slicedBulkAnswer(host: host, context: context) { return answer }
        }
        return try await host.run { host in
            bulkBody(
                flags: host.tweaks.allKeys().map { OFREPEvaluation(key: $0.flagKey, tweaks: host.tweaks, context: context).json },
                metadata: flagSetMetadataJSON(of: host.tweaks))
        }
    }

    /// The bulk answer made a slice at a time; nil when the flags changed before it was done.
    private static func slicedBulkAnswer(host: ControlHost, context: TweakContext) async throws -> String? {
        let (keys, metadata, revision) = try await host.run { host in
            (host.tweaks.allKeys().map(\.flagKey), flagSetMetadataJSON(of: host.tweaks), host.tweaks.revision)
        }
        var flags: [String] = []
        flags.reserveCapacity(keys.count)
        while flags.count < keys.count {
            let start = flags.count
            if start > 0 { await host.letWaitersThrough() }
            let slice = try await host.run { host -> [String]? in
                guard host.tweaks.revision == revision else { return nil }
                let clock = ContinuousClock()
                let deadline = clock.now + bulkSlice
                var slice: [String] = []
                for key in keys[start...] {
                    slice.append(OFREPEvaluation(key: key, tweaks: host.tweaks, context: context).json)
                    if clock.now >= deadline { break }
                }
                return slice
            }
            guard let slice else { return nil }
            flags += slice
        }
        return bulkBody(flags: flags, metadata: metadata)
    }

    private static func bulkBody(flags: [String], metadata: String) -> String {
        #"{"flags":["# + flags.joined(separator: ",") + #"],"metadata":"# + metadata + "}"
    }

    /// ``flagSetMetadata(of:)`` as JSON text.
    private static func flagSetMetadataJSON(of tweaks: TweakManager) -> String {
        var metadata = ""
        JSONValue.object(flagSetMetadata(of: tweaks)).writeJSON(into: &metadata)
        return metadata
    }

    /// How long one slice of a bulk answer holds the host's lock, at most (past one flag's evaluation).
    private static let bulkSlice = Duration.milliseconds(1)
    /// How many times a bulk answer is begun when the flags change under it.
    private static let bulkAttempts = 3

    /// The bulk answer's `metadata`: the flag sets' own metadata of the stack's flagd files, a higher
    /// provider's entry winning over a lower one's, as flagd answers with its flag set's.
    private static func flagSetMetadata(of tweaks: TweakManager) -> [String: JSONValue] {
        var metadata: [String: JSONValue] = [:]
        for case let flagd as FlagdTweakProvider in tweaks.providers.reversed() {
            metadata.merge(flagd.flagSetMetadata) { _, higher in higher }
        }
        return metadata
    }

    /// The evaluation context of an OFREP request: its body's `context` (`{"context": {...}}`), which
    /// OFREP's document requires (a body without one, or with null, is refused); other fields are
    /// ignored, as the document allows them (a later client may send more). A `targetingKey` that is not
    /// a string is left out, as OpenFeature's clients send a typed attribute of that name as it is.
    private static func ofrepContext(of request: Request) async throws -> TweakContext {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: ControlRequestBody.maximumSize)
        } catch {
            throw OFREPBodyTooLarge()
        }
        let body = try ControlRequestBody.parse(
            Data(buffer.readableBytesView), allowed: nil, example: #"{"context": {"targetingKey": "user-1"}}"#)
        switch body.fields["context"] {
        case nil, .null?:
            throw ControlError(.badRequest, "the request must carry a context object, as {\"context\": {\"targetingKey\": \"user-1\"}} (an empty one is {\"context\": {}})")
        case .object(let fields)?:
            var attributes: [String: JSONValue] = [:]
            for (name, value) in fields where value != .null {
                attributes[name] = value
            }
            if let key = attributes[TweakContext.targetingKeyField], key.stringValue == nil {
                attributes[TweakContext.targetingKeyField] = nil
            }
            return try TweakContext(jsonObject: attributes)
        case let other?:
            throw ControlError(.badRequest, "field 'context' must be a JSON object, not \(other.jsonTypeName)")
        }
    }

    /// A request body past ``ControlRequestBody/maximumSize``: answered 413 in OFREP's shape of a
    /// general error (`{"errorDetails": ...}`), not the control API's.
    private struct OFREPBodyTooLarge: Error {
        static var answer: Response {
            OFREPAnswer.failure(status: .contentTooLarge, "the request body is larger than \(ControlRequestBody.maximumSize) bytes")
        }
    }

    private static func ofrepAnswer(_ json: String, status: Int) -> Response {
        OFREPAnswer.json(json, status: HTTPResponse.Status(code: status))
    }

    /// A strong entity tag of `body`: its 64-bit FNV-1a hash, the same in every process for the same flags.
    static func entityTag(of body: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in body.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// The tags of an `If-None-Match` header: a list, weak ones compared as strong (RFC 9110's weak
    /// comparison, which `If-None-Match` uses).
    private static func entityTags(_ header: String) -> [String] {
        header.split(separator: ",").map { tag in
            let trimmed = tag.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed
        }
    }
}
