import NIOCore

/// Splits a byte stream into newline-terminated lines (without the `\n`; a trailing `\r` stays).
struct LineFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    /// gpsd's longest reports (SKY with many satellites) are a few kilobytes; anything far
    /// longer without a line end is not gpsd.
    static let maximumLineLength = 1 << 20

    struct LineTooLong: Error, CustomStringConvertible {
        var description: String { "the server sent more than \(LineFrameDecoder.maximumLineLength) bytes without a line end — is it gpsd?" }
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: 0x0A) else {
            if buffer.readableBytes > Self.maximumLineLength { throw LineTooLong() }
            return .needMoreData
        }
        guard let line = buffer.readSlice(length: newline - buffer.readerIndex) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 1)
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}
