import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request that is not valid HTTP/1.1 — a path and headers past the decoder's limit, a
/// malformed request line — with the API's JSON error (400 `bad_request`) naming what is wrong, then
/// closes the connection. Hummingbird would answer such a request with an empty 400.
///
/// One per connection, in the pipeline after the HTTP decoder (see `BackgroundServer`), where the
/// decoder's errors pass. While an answer to an earlier request is still being written, the connection
/// is only closed: an answer of its own would mix with it.
final class MalformedRequestAnswer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The most bytes of request line and headers the decoder reads (Hummingbird's default).
    static let headLimit = 80 * 1024

    /// Requests whose head was read and whose answer has not ended yet.
    private var unanswered = 0

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { unanswered += 1 }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { unanswered = max(0, unanswered - 1) }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        guard unanswered == 0 else {
            context.close(promise: nil)
            return
        }
        unanswered = 1 // nothing else is answered on this connection
        let body = ControlResponse.errorBody(ControlError(.badRequest, Self.message(for: parserError)))
        var fields = HTTPFields()
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.contentLength] = String(body.count)
        fields[.connection] = "close"
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .badRequest, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(bytes: body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    /// What is wrong with the request, for the answer.
    static func message(for error: HTTPParserError) -> String {
        switch error {
        case .headerOverflow:
            return "the request's path and headers are too large: at most \(headLimit / 1024) KiB together; send a shorter path or fewer headers"
        case .invalidURL:
            return "the request's path is not a valid URL path; percent-encode what is not"
        case .invalidMethod, .unknown:
            return "the request is not valid HTTP/1.1: its method is not one HTTP has"
        default:
            return "the request is not valid HTTP/1.1 (\(error)); the control API speaks HTTP/1.1 with JSON bodies"
        }
    }
}
