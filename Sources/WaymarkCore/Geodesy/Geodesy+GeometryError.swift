import Foundation

extension Geodesy {
    /// Why a list of points has no polygon area or hull centroid.
    public enum GeometryError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The list is empty (a centroid needs at least one point).
        case noPoints
        /// The point at `index` has a latitude or longitude that is not a finite number, or a
        /// latitude beyond ±90°.
        case invalidPoint(index: Int)
        /// A polygon needs three different places; the list has only `distinct`.
        case tooFewPoints(distinct: Int)
        /// The geodesic of the edge starting at point `index` could not be found: its ends are
        /// nearly antipodal, which no walked path has.
        case unresolvedEdge(index: Int)

        public var description: String {
            switch self {
            case .noPoints: "no points"
            case .invalidPoint(let index): "point \(index + 1) is not a valid latitude and longitude"
            case .tooFewPoints(let distinct): "a polygon needs 3 different points, these have \(distinct)"
            case .unresolvedEdge(let index): "the edge from point \(index + 1) joins nearly antipodal points"
            }
        }
    }

    /// The points, checked: finite latitudes within ±90° and finite longitudes.
    static func checkedPoints(_ points: [(lat: Double, lon: Double)]) throws(GeometryError) {
        for (index, point) in points.enumerated() {
            guard point.lat.isFinite, point.lon.isFinite, abs(point.lat) <= 90 else {
                throw .invalidPoint(index: index)
            }
        }
    }
}
