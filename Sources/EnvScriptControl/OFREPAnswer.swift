import Hummingbird
import Tweaks

/// OFREP's answers as they go on the wire: JSON bodies, and the general error shape
/// `{"errorDetails": "..."}` the protocol uses for what is not a flag's own error.
package enum OFREPAnswer {
    /// `json` with `status`.
    static func json(_ json: String, status: HTTPResponse.Status) -> Response {
        let bytes = ByteBuffer(string: json)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(bytes.readableBytes)],
            body: ResponseBody(byteBuffer: bytes))
    }

    /// `{"errorDetails": message}` with `status`.
    static func failure(status: HTTPResponse.Status, _ message: String) -> Response {
        var details = ""
        JSONValue.writeJSONString(message, into: &details)
        return json(#"{"errorDetails":"# + details + "}", status: status)
    }
}
