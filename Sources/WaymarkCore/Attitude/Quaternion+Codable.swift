import Foundation

/// A quaternion is written `{"w": …, "x": …, "y": …, "z": …}`, as a scene's attitude is (DESIGN §3.9).
///
/// Reading refuses what is not an attitude: a component missing or not a number, or a norm
/// further than ``Quaternion/unitTolerance`` from 1 (a zero, an unnormalised or a mistyped
/// quaternion); what passes is normalised.
extension Quaternion: Codable {
    /// How far from 1 the norm of a quaternion that is read may be.
    public static let unitTolerance = 1e-3

    private enum CodingKeys: String, CodingKey { case w, x, y, z }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let w = try container.decode(Double.self, forKey: .w)
        let x = try container.decode(Double.self, forKey: .x)
        let y = try container.decode(Double.self, forKey: .y)
        let z = try container.decode(Double.self, forKey: .z)
        let norm = (w * w + x * x + y * y + z * z).squareRoot()
        guard norm.isFinite, abs(norm - 1) <= Self.unitTolerance, let unit = Quaternion(w: w, x: x, y: y, z: z) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "an attitude quaternion has norm 1 (within \(Self.unitTolerance)); this one has \(norm)"))
        }
        self = unit
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(w, forKey: .w)
        try container.encode(x, forKey: .x)
        try container.encode(y, forKey: .y)
        try container.encode(z, forKey: .z)
    }
}
