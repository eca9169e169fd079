import Foundation

/// A place on the WGS-84 ellipsoid from which the sky is seen.
public struct SkyObserver: Sendable, Equatable {
    /// Geodetic latitude in degrees (−90…90).
    public var latitude: Double
    /// Longitude in degrees, east positive.
    public var longitude: Double
    /// Height above the WGS-84 ellipsoid in metres.
    public var height: Double

    public init(latitude: Double, longitude: Double, height: Double = 0) {
        self.latitude = latitude
        self.longitude = longitude
        self.height = height
    }

    /// The place's Earth-centred, Earth-fixed coordinates in kilometres.
    var ecef: SIMD3<Double> {
        let a = 6378.137
        let f = 1 / 298.257223563
        let e2 = f * (2 - f)
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        let n = a / (1 - e2 * sin(phi) * sin(phi)).squareRoot()
        let h = height / 1000
        return SIMD3((n + h) * cos(phi) * cos(lambda), (n + h) * cos(phi) * sin(lambda), (n * (1 - e2) + h) * sin(phi))
    }
}

/// Where a satellite appears in an observer's sky.
public struct LookAngles: Sendable, Equatable {
    /// Degrees clockwise from true north, 0..<360.
    public var azimuth: Double
    /// Degrees above the horizon (the ellipsoid's tangent plane), −90…90.
    public var elevation: Double
    /// Distance from the observer in kilometres.
    public var range: Double
}

/// A satellite above the horizon, as `GET /api/v1/sky` lists it.
public struct SkySatellite: Sendable, Equatable {
    public var name: String
    public var catalogNumber: Int
    public var constellation: GNSSConstellation?
    /// Degrees clockwise from true north, 0..<360.
    public var azimuth: Double
    /// Degrees above the horizon.
    public var elevation: Double
}

/// The expected sky of navigation satellites for a place and time.
///
/// Positions come from SGP4 in the TEME frame, turned into the Earth-fixed frame by the
/// Greenwich mean sidereal time (IAU-82, with UTC standing in for UT1) about the z axis.
/// Polar motion and the equation of the equinoxes are ignored: together they move a satellite
/// by well under 0.01° in the sky, far below what a sky map can show or SGP4 can predict.
public enum SkyMap {
    /// A TEME position (km) at a time, in Earth-centred Earth-fixed coordinates (km).
    public static func earthFixed(_ teme: SIMD3<Double>, at date: Date) -> SIMD3<Double> {
        let jd = Sidereal.julianDay(date)
        let theta = Sidereal.gmst(julianDay: jd.whole + jd.fraction)
        let c = cos(theta), s = sin(theta)
        return SIMD3(c * teme.x + s * teme.y, -s * teme.x + c * teme.y, teme.z)
    }

    /// Azimuth, elevation and range of an Earth-fixed position (km) seen from an observer.
    public static func lookAngles(of ecef: SIMD3<Double>, from observer: SkyObserver) -> LookAngles {
        let d = ecef - observer.ecef
        let phi = observer.latitude * .pi / 180, lambda = observer.longitude * .pi / 180
        let east = -sin(lambda) * d.x + cos(lambda) * d.y
        let north = -sin(phi) * cos(lambda) * d.x - sin(phi) * sin(lambda) * d.y + cos(phi) * d.z
        let up = cos(phi) * cos(lambda) * d.x + cos(phi) * sin(lambda) * d.y + sin(phi) * d.z
        var azimuth = atan2(east, north) * 180 / .pi
        if azimuth < 0 { azimuth += 360 }
        if azimuth >= 360 { azimuth -= 360 }
        let horizontal = (east * east + north * north).squareRoot()
        return LookAngles(azimuth: azimuth, elevation: atan2(up, horizontal) * 180 / .pi,
                          range: (horizontal * horizontal + up * up).squareRoot())
    }

    /// Where a propagated satellite appears from an observer at a time.
    public static func lookAngles(_ propagator: SGP4, from observer: SkyObserver, at date: Date) throws(SGP4Error) -> LookAngles {
        let state = try propagator.propagate(to: date)
        return lookAngles(of: earthFixed(state.position, at: date), from: observer)
    }

    /// Every satellite of the catalogue above the horizon (elevation > 0°) for a place and
    /// time, optionally of one constellation, by descending elevation. Satellites whose
    /// elements cannot be propagated to the time are left out and listed in `failures`.
    public static func visible(_ catalogue: TLECatalogue, from observer: SkyObserver, at date: Date,
                               constellation: GNSSConstellation? = nil) -> (satellites: [SkySatellite], failures: [SkyFailure]) {
        var satellites: [SkySatellite] = []
        var failures: [SkyFailure] = []
        for satellite in catalogue.satellites where constellation == nil || satellite.constellation == constellation {
            let elements = satellite.elements
            do {
                let angles = try lookAngles(try SGP4(elements), from: observer, at: date)
                guard angles.elevation > 0 else { continue }
                satellites.append(SkySatellite(
                    name: elements.name ?? String(elements.catalogNumber), catalogNumber: elements.catalogNumber,
                    constellation: satellite.constellation, azimuth: angles.azimuth, elevation: angles.elevation))
            } catch {
                failures.append(SkyFailure(catalogNumber: elements.catalogNumber, name: elements.name, error: error))
            }
        }
        satellites.sort { $0.elevation > $1.elevation }
        return (satellites, failures)
    }
}

/// A satellite the sky map could not place, and why.
public struct SkyFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var catalogNumber: Int
    public var name: String?
    public var error: SGP4Error
    public var description: String { "\(name ?? String(catalogNumber)) (\(catalogNumber)): \(error)" }
}
