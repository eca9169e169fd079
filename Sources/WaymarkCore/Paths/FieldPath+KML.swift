import Foundation

extension FieldPath {
    /// The path as a KML 2.2 document (valid against the OGC KML 2.2 schema) with one Placemark.
    ///
    /// - A path with 3 or more different places: a `MultiGeometry` with the closed `Polygon`
    ///   (its `outerBoundaryIs` `LinearRing` is ``closedRing``, first point repeated last, turned
    ///   round when the walk went clockwise, because KML wants outer boundaries counter-clockwise)
    ///   and the walked `LineString`; `ExtendedData` holds `area` (m²), `areaHectares`,
    ///   `perimeter` (m), `length` (m along the walk), `points`, `start` and `end`.
    /// - 2 different places: only the `LineString`; 1 place: only a `Point`. Neither encloses an
    ///   area, so `area`, `areaHectares` and `perimeter` are left out (not written as 0).
    ///
    /// Coordinates are "lon,lat[,alt]" tuples with 9 decimals (0.1 mm); the altitude is written
    /// where known. Geometry is `tessellate`d and clamped to the ground, as a walked field is.
    /// The Placemark's name is the path's name, else its start time; it has a `TimeSpan` from the
    /// first point's time to the last's.
    ///
    /// - Throws: ``Geodesy/GeometryError/unresolvedEdge(index:)`` as ``measure()`` does.
    public func kml() throws(Geodesy.GeometryError) -> Data {
        let measurement = try measure()
        let start = TrackTime.format(points[0].time)
        let end = TrackTime.format(points[points.count - 1].time)
        let title = (name ?? start).xmlEscaped
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2">
          <Document>
            <name>\(title)</name>
            <Style id="fieldPath">
              <LineStyle><color>ff1478ff</color><width>3</width></LineStyle>
              <PolyStyle><color>5514b43c</color></PolyStyle>
            </Style>
            <Placemark>
              <name>\(title)</name>
              <TimeSpan><begin>\(start)</begin><end>\(end)</end></TimeSpan>
              <styleUrl>#fieldPath</styleUrl>
              <ExtendedData>

        """
        func data(_ key: String, _ value: String) {
            out += "        <Data name=\"\(key)\"><value>\(value)</value></Data>\n"
        }
        if let polygon = measurement.polygon {
            data("area", TrackNumbers.fixed(polygon.area, digits: 2))
            data("areaHectares", TrackNumbers.fixed(polygon.area / 10_000, digits: 6))
            data("perimeter", TrackNumbers.fixed(polygon.perimeter, digits: 2))
        }
        data("length", TrackNumbers.fixed(measurement.length, digits: 2))
        data("points", String(points.count))
        data("start", start)
        data("end", end)
        out += "      </ExtendedData>\n"

        let places = points.reduce(into: [Point]()) { distinct, point in
            if distinct.count < 2, !distinct.contains(where: { Geodesy.samePlace($0.place, point.place) }) {
                distinct.append(point)
            }
        }
        if let polygon = measurement.polygon {
            let ring = polygon.orientation == .clockwise ? Array(closedRing.reversed()) : closedRing
            out += "      <MultiGeometry>\n"
            out += "        <Polygon>\n          <tessellate>1</tessellate>\n"
            out += "          <outerBoundaryIs><LinearRing><coordinates>\n"
            Self.append(ring, to: &out)
            out += "          </coordinates></LinearRing></outerBoundaryIs>\n        </Polygon>\n"
            out += "        <LineString>\n          <tessellate>1</tessellate>\n          <coordinates>\n"
            Self.append(points, to: &out)
            out += "          </coordinates>\n        </LineString>\n"
            out += "      </MultiGeometry>\n"
        } else if places.count == 2 {
            out += "      <LineString>\n        <tessellate>1</tessellate>\n        <coordinates>\n"
            Self.append(points, to: &out)
            out += "        </coordinates>\n      </LineString>\n"
        } else {
            out += "      <Point>\n        <coordinates>"
            out += Self.tuple(points[0])
            out += "</coordinates>\n      </Point>\n"
        }
        out += "    </Placemark>\n  </Document>\n</kml>\n"
        return Data(out.utf8)
    }

    /// "lon,lat[,alt]".
    private static func tuple(_ point: Point) -> String {
        var text = TrackNumbers.fixed(point.longitude, digits: 9) + "," + TrackNumbers.fixed(point.latitude, digits: 9)
        if let altitude = point.altitude { text += "," + TrackNumbers.fixed(altitude, digits: 3) }
        return text
    }

    private static func append(_ points: [Point], to out: inout String) {
        for point in points { out += "            " + tuple(point) + "\n" }
    }
}
