import Foundation

/// A path walked in the field: a point about every second while the phone recorded, an optional
/// name, and — when stopped — the polygon it closes, whose area is the field's (DESIGN §3.10).
///
/// Made only through ``init(name:points:)`` or ``decode(json:)``, which check every point, so a
/// `FieldPath` always has 1 to ``maximumPointCount`` points with valid coordinates and times
/// that never go backwards.
public struct FieldPath: Sendable, Equatable {
    /// One recorded fix.
    public struct Point: Sendable, Equatable {
        /// Degrees, −90…90.
        public var latitude: Double
        /// Degrees, −180…180.
        public var longitude: Double
        /// Metres above the WGS-84 ellipsoid as the browser reports it; nil when unknown.
        public var altitude: Double?
        /// When the fix was taken.
        public var time: Date

        public init(latitude: Double, longitude: Double, altitude: Double? = nil, time: Date) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
            self.time = time
        }

        var place: (lat: Double, lon: Double) { (latitude, longitude) }
    }

    /// The most points a path may have: a day at one point a second.
    public static let maximumPointCount = 86_400
    /// The longest name, in characters.
    public static let maximumNameLength = 200
    /// The earliest accepted time, 2000-01-01T00:00:00Z (earlier is a clock or unit error).
    public static let earliestTime = Date(timeIntervalSince1970: 946_684_800)
    /// The first refused time, 2100-01-01T00:00:00Z (a time in milliseconds lands far beyond it).
    public static let timeLimit = Date(timeIntervalSince1970: 4_102_444_800)
    /// The accepted altitudes in metres: from below the Dead Sea shore's deepest mines to far above
    /// any aircraft a farmer walks from.
    public static let altitudeRange = -12_000.0...100_000.0

    /// The name the user gave, trimmed; nil when none (or only white space) was given.
    public let name: String?
    /// The walked points in the order they were recorded.
    public let points: [Point]

    /// A path from checked points.
    ///
    /// - Parameters:
    ///   - name: Trimmed of white space; empty becomes nil. At most ``maximumNameLength``
    ///     characters, with no control characters (they cannot be written to XML).
    ///   - points: 1 to ``maximumPointCount`` points; latitudes within ±90°, longitudes within
    ///     ±180°, altitudes in ``altitudeRange``, all finite; times from ``earliestTime`` up to
    ///     (not including) ``timeLimit``, each no earlier than the one before (equal is allowed:
    ///     browsers repeat a fix's time).
    /// - Throws: ``FieldPathError`` naming the first offending point by its index in `points`.
    public init(name: String?, points: [Point]) throws(FieldPathError) {
        self.name = try Self.checkedName(name)
        guard !points.isEmpty else { throw .noPoints }
        guard points.count <= Self.maximumPointCount else { throw .tooManyPoints(count: points.count) }
        var previous: Date?
        for (index, point) in points.enumerated() {
            guard point.latitude.isFinite else { throw .notANumber(index: index, field: .latitude) }
            guard point.longitude.isFinite else { throw .notANumber(index: index, field: .longitude) }
            guard abs(point.latitude) <= 90 else { throw .latitudeOutOfRange(index: index) }
            guard abs(point.longitude) <= 180 else { throw .longitudeOutOfRange(index: index) }
            if let altitude = point.altitude {
                guard altitude.isFinite else { throw .notANumber(index: index, field: .altitude) }
                guard Self.altitudeRange.contains(altitude) else { throw .altitudeOutOfRange(index: index) }
            }
            let seconds = point.time.timeIntervalSince1970
            guard seconds.isFinite else { throw .notANumber(index: index, field: .time) }
            guard point.time >= Self.earliestTime, point.time < Self.timeLimit else { throw .timeOutOfRange(index: index) }
            if let previous, point.time < previous { throw .timeGoesBackwards(index: index) }
            previous = point.time
        }
        self.points = points
    }

    static func checkedName(_ name: String?) throws(FieldPathError) -> String? {
        guard let trimmed = name?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        guard trimmed.count <= maximumNameLength else { throw .invalidName }
        for scalar in trimmed.unicodeScalars {
            // XML 1.0 forbids C0 controls (but tab, LF, CR) and U+FFFE/U+FFFF; a name needs none of
            // them, nor the C1 controls.
            if scalar.properties.generalCategory == .control || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                throw .invalidName
            }
        }
        return trimmed
    }

    /// The closed ring of the polygon the walk makes when stopped: the walked points, without
    /// any at the end that repeat the start's place, then the first point again.
    public var closedRing: [Point] {
        var ring = points
        while ring.count > 1, let first = ring.first, let last = ring.last,
              Geodesy.samePlace(first.place, last.place) {
            ring.removeLast()
        }
        ring.append(points[0])
        return ring
    }

    /// What a path measures.
    public struct Measurement: Sendable, Equatable {
        /// The closed polygon's geodesic area, perimeter and orientation on WGS-84
        /// (``Geodesy/polygon(_:)`` of ``FieldPath/closedRing``); nil when the path has fewer
        /// than 3 different places and so encloses nothing.
        public var polygon: Geodesy.PolygonMeasure?
        /// The walk's length in metres along the recorded points, not closed (0 for one point).
        ///
        /// Each leg is measured as ``Geodesy/polygon(_:)`` measures its edges, so for a polygon
        /// `perimeter` is this plus the closing edge. (``Geodesy/distance(_:_:)`` stops its
        /// iteration at an absolute 1e-12 rad, which leaves about 2 µm on a 1 m east–west leg:
        /// 2e-6 relative, several millimetres over an hour's walk; GeographicLib agrees with this
        /// one to 1e-9.)
        public var length: Double
    }

    /// The area and perimeter of the closed polygon and the walk's length.
    ///
    /// - Throws: ``Geodesy/GeometryError/unresolvedEdge(index:)`` when two consecutive points
    ///   are nearly antipodal, which no walk has.
    public func measure() throws(Geodesy.GeometryError) -> Measurement {
        var length = 0.0
        for (a, b) in zip(points, points.dropFirst()) {
            // Nearly antipodal neighbours, which no walk has, fall back to Vincenty's distance.
            length += PolygonEdge(a.place, b.place)?.length ?? Geodesy.distance(a.place, b.place)
        }
        do throws(Geodesy.GeometryError) {
            let polygon = try Geodesy.polygon(closedRing.map(\.place))
            return Measurement(polygon: polygon, length: length)
        } catch {
            guard case .tooFewPoints = error else { throw error }
            return Measurement(polygon: nil, length: length)
        }
    }
}
