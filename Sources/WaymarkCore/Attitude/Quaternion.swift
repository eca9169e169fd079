import Foundation

/// A unit quaternion `w + x·i + y·j + z·k` (Hamilton's convention): a rotation, and so a device
/// attitude.
///
/// An attitude quaternion turns device coordinates into world coordinates: the device's axes,
/// as the W3C Device Orientation spec defines them (x to the right of the screen, y to its top,
/// z out of the screen towards the user), rotated by it, give their directions in the world frame
/// east-north-up. `q` and `-q` are the same rotation.
///
/// Every value is of unit length: the initialiser normalises and refuses what cannot be
/// normalised, and the product normalises again, so rounding never builds up. The same arithmetic,
/// step for step, is `Web/scenes/attitude.js`; both are checked against
/// `Tests/Conformance/attitude/*.json`.
public struct Quaternion: Sendable, Hashable {
    /// The scalar part.
    public let w: Double
    /// The i part.
    public let x: Double
    /// The j part.
    public let y: Double
    /// The k part.
    public let z: Double

    /// No rotation.
    public static let identity = Quaternion(unchecked: 1, 0, 0, 0)

    /// The unit quaternion in the direction of `(w, x, y, z)`; nil when its norm, computed
    /// plainly as √(w² + x² + y² + z²), is zero or not finite: all zero, a NaN or infinite
    /// component, or components so large (beyond about 1e154) or so small (below about 1e-162)
    /// that their squares overflow or all underflow.
    public init?(w: Double, x: Double, y: Double, z: Double) {
        let norm = (w * w + x * x + y * y + z * z).squareRoot()
        guard norm.isFinite, norm > 0 else { return nil }
        self.init(unchecked: w / norm, x / norm, y / norm, z / norm)
    }

    /// The rotation by `angle` radians about the unit vector `axis` (right-handed).
    init(axis: (x: Double, y: Double, z: Double), angle: Double) {
        let s = sin(angle / 2)
        self.init(unchecked: cos(angle / 2), axis.x * s, axis.y * s, axis.z * s)
    }

    init(unchecked w: Double, _ x: Double, _ y: Double, _ z: Double) {
        self.w = w
        self.x = x
        self.y = y
        self.z = z
    }

    /// The inverse rotation (for a unit quaternion, its conjugate `w − x·i − y·j − z·k`).
    public var inverse: Quaternion { Quaternion(unchecked: w, -x, -y, -z) }

    /// The same rotation with every sign flipped.
    public static prefix func - (q: Quaternion) -> Quaternion { Quaternion(unchecked: -q.w, -q.x, -q.y, -q.z) }

    /// Hamilton's product, normalised: the rotation `rhs` followed by `lhs` (in the frame that
    /// `lhs` leaves), as for rotation matrices `M(lhs)·M(rhs)`.
    public static func * (lhs: Quaternion, rhs: Quaternion) -> Quaternion {
        let w = lhs.w * rhs.w - lhs.x * rhs.x - lhs.y * rhs.y - lhs.z * rhs.z
        let x = lhs.w * rhs.x + lhs.x * rhs.w + lhs.y * rhs.z - lhs.z * rhs.y
        let y = lhs.w * rhs.y - lhs.x * rhs.z + lhs.y * rhs.w + lhs.z * rhs.x
        let z = lhs.w * rhs.z + lhs.x * rhs.y - lhs.y * rhs.x + lhs.z * rhs.w
        // Both factors are of unit length, so the product's norm is 1 up to rounding.
        let norm = (w * w + x * x + y * y + z * z).squareRoot()
        return Quaternion(unchecked: w / norm, x / norm, y / norm, z / norm)
    }

    /// The rotation matrix, row by row: its columns are the device's x, y and z axes in world
    /// coordinates (east, north, up).
    public var rotationMatrix: [[Double]] {
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    }

    /// Whether `other` is the same rotation within `tolerance` per component (`q` and `-q` are).
    public func isSameRotation(as other: Quaternion, tolerance: Double = 1e-9) -> Bool {
        let plus = max(abs(w - other.w), abs(x - other.x), abs(y - other.y), abs(z - other.z))
        let minus = max(abs(w + other.w), abs(x + other.x), abs(y + other.y), abs(z + other.z))
        return min(plus, minus) <= tolerance
    }
}
