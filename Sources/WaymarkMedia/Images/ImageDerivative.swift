import Foundation

/// An image made from a photo for showing it: shrunk, upright, stripped of every metadata tag, encoded.
public struct ImageDerivative: Sendable, Equatable {
    /// How large a derivative is.
    public enum Size: Sendable, Hashable {
        /// The largest centred square, shrunk to this side (smaller when the image is).
        case square(Int)
        /// Fits in a square box of this side, keeping its aspect (never enlarged).
        case longSide(Int)

        /// The photo grid's thumbnail: a 256-pixel square.
        public static let thumb = Size.square(256)
        /// The photo page: 1,024 pixels on the long side.
        public static let medium = Size.longSide(1024)
        /// Full screen and Save: 2,048 pixels on the long side.
        public static let large = Size.longSide(2048)

        /// The side in pixels.
        public var side: Int {
            switch self {
            case .square(let side), .longSide(let side): side
            }
        }
    }

    /// How a derivative is encoded.
    public enum Encoding: Sendable, Hashable {
        /// Progressive JPEG, quality 1–100; transparency flattened onto white.
        case jpeg(quality: Int = 85)
        /// Lossy WebP, quality 1–100; transparency kept.
        case webp(quality: Int = 80)

        /// `image/jpeg` or `image/webp`.
        public var mimeType: String {
            switch self {
            case .jpeg: "image/jpeg"
            case .webp: "image/webp"
            }
        }
    }

    /// The encoded bytes.
    public var data: Data
    /// The width in pixels, upright.
    public var width: Int
    /// The height in pixels, upright.
    public var height: Int
    /// The encoding of ``data``.
    public var encoding: Encoding

    /// The MIME type of ``data``.
    public var mimeType: String { encoding.mimeType }
}
