import Foundation

/// A decrypted OwnTracks message read as a fix (owntracks.org/booklet/tech/json, `_type=location`):
/// `lat`, `lon` and `tst` (Unix seconds of the fix) are required; `acc` (m), `alt` (m), `vel`
/// (km/h) and `cog` (degrees) are added by the apps only when they are not zero.
///
/// The fix's time is its own `tst`, never `created_at` nor when the message arrived: OwnTracks
/// queues messages while the phone is offline and sends them later.
public enum OwnTracksLocation {
    /// Why a decrypted message gave no fix.
    public enum Skipped: Error, Sendable, Equatable {
        /// Another `_type` (a transition, a waypoint, a status…): nothing to place photos on.
        case notALocation(String)
        /// Not a JSON object, or a location without a usable `lat`, `lon` or `tst`.
        case malformed(String)
    }

    /// The fix a decrypted message holds.
    public static func fix(fromMessage json: Data) -> Result<Fix, Skipped> {
        guard let message = try? JSONDecoder().decode(Message.self, from: json) else {
            return .failure(.malformed("not a JSON object"))
        }
        guard let type = message.type else { return .failure(.malformed("no _type")) }
        guard type == "location" else { return .failure(.notALocation(type)) }
        guard let latitude = message.lat, (-90...90).contains(latitude),
              let longitude = message.lon, (-180...180).contains(longitude) else {
            return .failure(.malformed("lat and lon must be degrees (-90…90, -180…180)"))
        }
        guard let tst = message.tst, tst > 0, tst < 4_102_444_800 else {
            return .failure(.malformed("tst must be Unix seconds"))
        }
        let accuracy = message.acc.flatMap { $0 > 0 ? $0 : nil }
        let speed = message.vel.flatMap { $0 >= 0 ? $0 / 3.6 : nil }
        let course = message.cog.flatMap { (0..<360).contains($0) ? $0 : nil }
        return .success(Fix(latitude: latitude, longitude: longitude, altitude: message.alt, accuracy: accuracy,
                            speed: speed, course: course, time: Date(timeIntervalSince1970: tst)))
    }

    /// The members read; one of another type (a string where a number belongs) counts as absent.
    private struct Message: Decodable {
        var type: String?
        var lat, lon, tst, acc, alt, vel, cog: Double?

        enum CodingKeys: String, CodingKey {
            case type = "_type", lat, lon, tst, acc, alt, vel, cog
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func number(_ key: CodingKeys) -> Double? {
                (try? container.decodeIfPresent(Double.self, forKey: key)).flatMap { $0?.isFinite == true ? $0 : nil }
            }
            type = try? container.decodeIfPresent(String.self, forKey: .type)
            lat = number(.lat); lon = number(.lon); tst = number(.tst)
            acc = number(.acc); alt = number(.alt); vel = number(.vel); cog = number(.cog)
        }
    }
}
