import Foundation

/// The nearest-place search.
///
/// Places are kept as points in 3-D Earth-centred coordinates on the WGS-84 ellipsoid, in a
/// balanced k-d tree laid out in the array itself (the median of each range splits it). The
/// straight-line distance (chord) between two points of the ellipsoid is never longer than the
/// geodesic between them, so the chord is a lower bound that prunes the tree, and every place whose
/// chord is below the best geodesic found so far is measured by ``Geodesy/distance(_:_:)``. The
/// answer is therefore the place with the smallest geodesic distance — exactly, not an
/// approximation — with no seam at the antimeridian and no singularity at the poles. Of places
/// at the same distance (GeoNames lists some at identical coordinates), the one earlier in the
/// file wins.
extension Gazetteer {
    /// Ranges of at most this many places are scanned instead of split.
    static let leafSize = 8

    /// Orders `entries` as a k-d tree and records each node's split axis in `axes`.
    static func buildTree(_ entries: inout [Entry], axes: inout [UInt8]) {
        entries.withUnsafeMutableBufferPointer { points in
            axes.withUnsafeMutableBufferPointer { axes in
                build(points, axes, 0, points.count)
            }
        }
    }

    private static func build(_ points: UnsafeMutableBufferPointer<Entry>, _ axes: UnsafeMutableBufferPointer<UInt8>, _ low: Int, _ high: Int) {
        guard high - low > leafSize else { return }
        // Split along the axis of the largest extent.
        var lower = (Double.infinity, Double.infinity, Double.infinity)
        var upper = (-Double.infinity, -Double.infinity, -Double.infinity)
        for index in low..<high {
            let point = points[index]
            lower = (min(lower.0, point.x), min(lower.1, point.y), min(lower.2, point.z))
            upper = (max(upper.0, point.x), max(upper.1, point.y), max(upper.2, point.z))
        }
        let extents = [upper.0 - lower.0, upper.1 - lower.1, upper.2 - lower.2]
        let axis = extents[0] >= extents[1] ? (extents[0] >= extents[2] ? 0 : 2) : (extents[1] >= extents[2] ? 1 : 2)
        let middle = (low + high) / 2
        select(points, low, high, middle, axis: axis)
        axes[middle] = UInt8(axis)
        build(points, axes, low, middle)
        build(points, axes, middle + 1, high)
    }

    /// Reorders `points[low..<high]` so that the element at `k` is the one a sort along `axis`
    /// would put there, with none greater before it and none smaller after it (quickselect with a
    /// three-way partition, so that repeated coordinates cost nothing).
    private static func select(_ points: UnsafeMutableBufferPointer<Entry>, _ low: Int, _ high: Int, _ k: Int, axis: Int) {
        var low = low, high = high - 1
        while high > low {
            let a = points[low][axis], b = points[(low + high) / 2][axis], c = points[high][axis]
            let pivot = max(min(a, b), min(max(a, b), c))
            var less = low, index = low, greater = high
            while index <= greater {
                let value = points[index][axis]
                if value < pivot {
                    points.swapAt(less, index)
                    less += 1
                    index += 1
                } else if value > pivot {
                    points.swapAt(index, greater)
                    greater -= 1
                } else {
                    index += 1
                }
            }
            if k < less {
                high = less - 1
            } else if k > greater {
                low = greater + 1
            } else {
                return
            }
        }
    }

    /// The nearest place to a point and how the point lies from it, or nil when the latitude is
    /// not within -90...90 or either coordinate is not finite. Longitudes outside -180...180 are
    /// taken modulo 360.
    public func nearest(latitude: Double, longitude: Double) -> PlaceDescription? {
        nearest(latitude: latitude, longitude: longitude, count: 1).first
    }

    /// Up to `count` places nearest to a point, nearest first (by geodesic distance, exactly; of
    /// places at the same distance the one earlier in the file first), only those within `radius`
    /// metres; each with how the point lies from it. Empty for a point that ``nearest(latitude:longitude:)``
    /// would refuse, or for `count` < 1.
    public func nearest(latitude: Double, longitude: Double, count: Int, within radius: Double = .infinity) -> [PlaceDescription] {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), count > 0, radius >= 0 else { return [] }
        let longitude = remainder(longitude, 360)
        return nearestIndices(latitude: latitude, longitude: longitude, count: count, within: radius).map { index in
            let place = place(at: index)
            let line = Geodesy.inverse((place.latitude, place.longitude), (latitude, longitude))
            return PlaceDescription(place: place, distance: line.distance, azimuth: line.startAzimuth)
        }
    }

    /// The indices in `entries` of the `count` places with the smallest geodesic distance to the
    /// point within `radius`, nearest first.
    func nearestIndices(latitude: Double, longitude: Double, count: Int, within radius: Double) -> [Int] {
        var search = NearestSearch(query: Self.ellipsoidPoint(latitude: latitude, longitude: longitude),
                                   latitude: latitude, longitude: longitude, count: count, radius: radius)
        entries.withUnsafeBufferPointer { points in
            axes.withUnsafeBufferPointer { axes in
                search.visit(points, axes, 0, points.count)
            }
        }
        return search.found.map(\.index)
    }

    /// The state of one search: the query and the best places so far.
    private struct NearestSearch {
        /// Rounding in the chord and Vincenty's error are far below this; it keeps the bound safe.
        static let slack = 0.001

        let query: (x: Double, y: Double, z: Double)
        let latitude: Double, longitude: Double
        let count: Int
        let radius: Double
        /// The best places so far, nearest first (distance, then line in the file).
        var found: [(index: Int, distance: Double, line: UInt32)] = []
        /// The square of the chord below which a place may still be among the best.
        var bound: Double

        init(query: (x: Double, y: Double, z: Double), latitude: Double, longitude: Double, count: Int, radius: Double) {
            self.query = query
            self.latitude = latitude
            self.longitude = longitude
            self.count = count
            self.radius = radius
            let limit = radius + Self.slack
            bound = limit * limit
        }

        mutating func visit(_ points: UnsafeBufferPointer<Entry>, _ axes: UnsafeBufferPointer<UInt8>, _ low: Int, _ high: Int) {
            if high - low <= Gazetteer.leafSize {
                for index in low..<high { consider(points, index) }
                return
            }
            let middle = (low + high) / 2
            let axis = Int(axes[middle])
            let offset = coordinate(axis) - points[middle][axis]
            if offset < 0 {
                visit(points, axes, low, middle)
                consider(points, middle)
                if offset * offset <= bound { visit(points, axes, middle + 1, high) }
            } else {
                visit(points, axes, middle + 1, high)
                consider(points, middle)
                if offset * offset <= bound { visit(points, axes, low, middle) }
            }
        }

        private func coordinate(_ axis: Int) -> Double {
            switch axis {
            case 0: query.x
            case 1: query.y
            default: query.z
            }
        }

        private mutating func consider(_ points: UnsafeBufferPointer<Entry>, _ index: Int) {
            let point = points[index]
            let dx = point.x - query.x, dy = point.y - query.y, dz = point.z - query.z
            guard dx * dx + dy * dy + dz * dz <= bound else { return }
            let distance = Geodesy.distance((point.latitude, point.longitude), (latitude, longitude))
            guard distance <= radius else { return }
            let before = { (other: (index: Int, distance: Double, line: UInt32)) in
                distance < other.distance || (distance == other.distance && point.line < other.line)
            }
            if found.count == count {
                guard let last = found.last, before(last) else { return }
                found.removeLast()
            }
            found.insert((index, distance, point.line), at: found.firstIndex(where: before) ?? found.count)
            if found.count == count, let last = found.last {
                let limit = last.distance + Self.slack
                bound = limit * limit
            }
        }
    }
}
