import Foundation
import WaymarkCore
import WaymarkMedia

/// The two small maps of a photo's PDF, drawn as vectors (the server has no map tiles and no
/// network): the photo's place close up — the point, its accuracy circle, the camera's direction
/// as a view wedge, the centroid — and its surroundings with the nearest places of the offline
/// gazetteer. Both are azimuthal equidistant around the photo's point (each thing at its true
/// geodesic distance and azimuth from it), north up, with a scale bar and a north arrow.
enum PhotoPDFMap {
    /// The half angle of the view wedge: a phone camera sees about 65° across.
    static let halfFieldOfView = 32.5
    static let detailHeight = 140.0
    static let surroundingsHeight = 100.0

    static let point = PDFDocument.Colour(hex: 0xD1242F)
    static let accuracy = PDFDocument.Colour(hex: 0x0969DA)
    static let view = PDFDocument.Colour(hex: 0xBF8700)
    static let centroid = PDFDocument.Colour(hex: 0x8250DF)
    static let land = PDFDocument.Colour(hex: 0xF6F8FA)
    static let grid = PDFDocument.Colour(hex: 0xE6EAEF)

    /// A map's frame: its box on the page and how many metres a point is.
    struct Frame {
        var x: Double, y: Double, width: Double, height: Double
        /// The photo's place.
        var latitude: Double, longitude: Double
        var metresPerPoint: Double

        var centre: PDFDocument.Point { PDFDocument.Point(x: x + width / 2, y: y + height / 2) }

        /// Where a place is drawn (azimuthal equidistant around the photo's place).
        func project(latitude: Double, longitude: Double) -> PDFDocument.Point {
            let line = Geodesy.inverse((self.latitude, self.longitude), (latitude, longitude))
            return offset(distance: line.distance, azimuth: line.startAzimuth ?? 0)
        }

        /// The point `distance` metres from the centre towards `azimuth` (degrees from north).
        func offset(distance: Double, azimuth: Double, from origin: PDFDocument.Point? = nil) -> PDFDocument.Point {
            let start = origin ?? centre, angle = azimuth * .pi / 180, length = distance / metresPerPoint
            return PDFDocument.Point(x: start.x + length * sin(angle), y: start.y - length * cos(angle))
        }

        func contains(_ point: PDFDocument.Point, inset: Double = 0) -> Bool {
            point.x >= x + inset && point.x <= x + width - inset && point.y >= y + inset && point.y <= y + height - inset
        }
    }

    /// The longest "nice" length (1, 2 or 5 × 10ⁿ metres) not longer than `metres`.
    static func niceLength(atMost metres: Double) -> Double {
        guard metres > 0 else { return 1 }
        let power = pow(10, floor(log10(metres)))
        for step in [5.0, 2, 1] where step * power <= metres { return step * power }
        return power
    }

    /// How far the close-up reaches from its centre to its nearer edge: enough for the accuracy
    /// circle, the centroid and a view wedge that can be seen, at least 25 m.
    static func detailRadius(_ photo: Photo) -> Double {
        var reach = 25.0
        if let accuracy = photo.place?.accuracy { reach = max(reach, accuracy * 1.6) }
        if let place = photo.place, let centroid = photo.centroid {
            reach = max(reach, Geodesy.distance((place.latitude, place.longitude), (centroid.latitude, centroid.longitude)) * 1.5)
        }
        return reach
    }

    /// Draws the maps and their caption from `y`; returns the y under the caption.
    static func draw(_ report: PhotoReport, in d: PDFDocument, x: Double, y: Double, width: Double) -> Double {
        guard let place = report.photo.place else {
            d.setColour(land)
            d.rectangle(x: x, y: y, width: width, height: 70, fill: true)
            d.setColour(PhotoPDF.rule)
            d.setLine(width: 0.5)
            d.rectangle(x: x, y: y, width: width, height: 70, fill: false)
            d.setColour(PhotoPDF.muted)
            d.text("No position", x: x + (width - d.textWidth("No position", size: 10, bold: true)) / 2, y: y + 38, size: 10, bold: true)
            return caption("No position: the photo was uploaded without a place, so there is nothing to map.", in: d, x: x, y: y + 70, width: width)
        }
        let photo = report.photo
        let radius = detailRadius(photo)
        let detail = Frame(x: x, y: y, width: width, height: detailHeight, latitude: place.latitude, longitude: place.longitude,
                           metresPerPoint: radius / (detailHeight / 2 - 6))
        drawDetail(photo, place: place, frame: detail, in: d)

        // The surroundings reach the farthest of the places shown (at least 1 km).
        let places = report.places ?? []
        let reach = max(1_000, (places.map(\.distance).max() ?? 0) * 1.15)
        let around = Frame(x: x, y: y + detailHeight + 8, width: width, height: surroundingsHeight, latitude: place.latitude,
                           longitude: place.longitude, metresPerPoint: reach / (surroundingsHeight / 2 - 8))
        drawSurroundings(places, known: report.places != nil, frame: around, detail: detail, in: d)

        var text = "Above: the photo's place (red)"
        if let accuracy = place.accuracy { text += ", accuracy ± \(PhotoPDF.number(accuracy, digits: 1)) m (blue)" }
        if let azimuth = photo.azimuth {
            text += ", the camera's direction \(PhotoPDF.number(azimuth, digits: 1))° with a phone's usual field of view of ± \(PhotoPDF.number(halfFieldOfView, digits: 1))° (orange)"
        }
        if let centroid = photo.centroid { text += ", the centroid of \(centroid.samples) fixes (purple ×)" }
        text += ". Below: \(PhotoPDF.distance(reach * 2)) around it"
        if report.places == nil {
            text += "; this server has no gazetteer, so no places are named"
        } else if places.isEmpty {
            text += "; no place of the gazetteer within 400 km"
        } else {
            text += " with the nearest places of the offline gazetteer"
        }
        text += ". North up, true distances from the photo (azimuthal equidistant); drawn by the server, no map tiles."
        if report.places != nil { text += " " + Gazetteer.attribution + "." }
        return caption(text, in: d, x: x, y: around.y + around.height, width: width)
    }

    static func caption(_ text: String, in d: PDFDocument, x: Double, y: Double, width: Double) -> Double {
        d.setColour(PhotoPDF.muted)
        var line = y + 4
        for row in PhotoPDF.wrap(text, width: width, size: 6.5, in: d) {
            line += 8
            d.text(row, x: x, y: line, size: 6.5)
        }
        return line
    }

    static func background(_ frame: Frame, in d: PDFDocument) {
        d.setColour(land)
        d.rectangle(x: frame.x, y: frame.y, width: frame.width, height: frame.height, fill: true)
        // A grid at the scale bar's step, through the photo's place.
        let step = niceLength(atMost: frame.width * frame.metresPerPoint / 4) / frame.metresPerPoint
        d.setColour(grid)
        d.setLine(width: 0.4)
        var offset = 0.0
        while offset < max(frame.width, frame.height) {
            for sign in [-1.0, 1.0] {
                let gx = frame.centre.x + sign * offset, gy = frame.centre.y + sign * offset
                if gx > frame.x, gx < frame.x + frame.width { d.line(from: .init(x: gx, y: frame.y), to: .init(x: gx, y: frame.y + frame.height)) }
                if gy > frame.y, gy < frame.y + frame.height { d.line(from: .init(x: frame.x, y: gy), to: .init(x: frame.x + frame.width, y: gy)) }
            }
            offset += step
        }
    }

    static func border(_ frame: Frame, in d: PDFDocument) {
        d.setColour(PhotoPDF.rule)
        d.setLine(width: 0.6)
        d.rectangle(x: frame.x, y: frame.y, width: frame.width, height: frame.height, fill: false)
        northArrow(frame, in: d)
        scaleBar(frame, in: d)
    }

    static func northArrow(_ frame: Frame, in d: PDFDocument) {
        let tip = PDFDocument.Point(x: frame.x + frame.width - 12, y: frame.y + 7)
        d.setColour(PhotoPDF.ink)
        d.polygon([tip, .init(x: tip.x - 4, y: tip.y + 12), .init(x: tip.x, y: tip.y + 9), .init(x: tip.x + 4, y: tip.y + 12)], fill: true)
        d.text("N", x: tip.x - d.textWidth("N", size: 6.5, bold: true) / 2, y: tip.y + 20, size: 6.5, bold: true)
    }

    static func scaleBar(_ frame: Frame, in d: PDFDocument) {
        let metres = niceLength(atMost: frame.width * frame.metresPerPoint / 3)
        let length = metres / frame.metresPerPoint
        let left = frame.x + 6, base = frame.y + frame.height - 6
        d.setColour(PDFDocument.Colour(hex: 0xFFFFFF, alpha: 0.8))
        d.rectangle(x: left - 3, y: base - 11, width: length + 6 + 30, height: 14, fill: true)
        d.setColour(PhotoPDF.ink)
        d.setLine(width: 1)
        d.line(from: .init(x: left, y: base), to: .init(x: left + length, y: base))
        d.line(from: .init(x: left, y: base - 3), to: .init(x: left, y: base))
        d.line(from: .init(x: left + length, y: base - 3), to: .init(x: left + length, y: base))
        d.text(PhotoPDF.distance(metres), x: left + length + 3, y: base, size: 6.5)
    }

    static func drawDetail(_ photo: Photo, place: Place, frame: Frame, in d: PDFDocument) {
        background(frame, in: d)
        let centre = frame.centre
        if let accuracy = place.accuracy, accuracy > 0 {
            let radius = accuracy / frame.metresPerPoint
            d.setColour(PDFDocument.Colour(hex: 0x0969DA, alpha: 0.15))
            d.circle(centre: centre, radius: radius, fill: true)
            d.setColour(Self.accuracy)
            d.setLine(width: 0.8)
            d.circle(centre: centre, radius: radius, fill: false)
        }
        if let azimuth = photo.azimuth {
            let reach = (frame.height / 2 - 10) * frame.metresPerPoint
            var wedge = [centre]
            for step in 0...12 {
                let angle = azimuth - halfFieldOfView + Double(step) * (2 * halfFieldOfView / 12)
                wedge.append(frame.offset(distance: reach, azimuth: angle))
            }
            d.setColour(PDFDocument.Colour(hex: 0xBF8700, alpha: 0.22))
            d.polygon(wedge, fill: true)
            d.setColour(view)
            d.setLine(width: 1.2)
            let end = frame.offset(distance: reach, azimuth: azimuth)
            d.line(from: centre, to: end)
            // An arrowhead at the end of the line of sight.
            let back = reach - 6 * frame.metresPerPoint
            d.polygon([end, frame.offset(distance: back, azimuth: azimuth - 4), frame.offset(distance: back, azimuth: azimuth + 4)], fill: true)
        }
        if let centroid = photo.centroid {
            let at = frame.project(latitude: centroid.latitude, longitude: centroid.longitude)
            d.setColour(PDFDocument.Colour(hex: 0x8250DF))
            d.setLine(width: 0.6, dash: 1.5)
            d.line(from: centre, to: at)
            d.setLine(width: 1.4)
            d.line(from: .init(x: at.x - 4, y: at.y - 4), to: .init(x: at.x + 4, y: at.y + 4))
            d.line(from: .init(x: at.x - 4, y: at.y + 4), to: .init(x: at.x + 4, y: at.y - 4))
        }
        d.setColour(.white)
        d.circle(centre: centre, radius: 3.6, fill: true)
        d.setColour(point)
        d.circle(centre: centre, radius: 2.6, fill: true)
        border(frame, in: d)
    }

    static func drawSurroundings(_ places: [PhotoReport.NearbyPlace], known: Bool, frame: Frame, detail: Frame, in d: PDFDocument) {
        background(frame, in: d)
        let centre = frame.centre
        // The close-up's extent, when it is large enough to see here.
        let ratio = detail.metresPerPoint / frame.metresPerPoint
        let extent = (width: detail.width * ratio, height: detail.height * ratio)
        if extent.height >= 3 {
            d.setColour(PhotoPDF.muted)
            d.setLine(width: 0.5)
            d.rectangle(x: centre.x - extent.width / 2, y: centre.y - extent.height / 2, width: extent.width, height: extent.height, fill: false)
        }
        // Labels where they overlap no other label and stay inside: right of the dot, left, above, below; else none.
        // The north arrow and the scale bar are taken from the start.
        var taken: [(x: Double, y: Double, width: Double, height: Double)] = [
            (frame.x + frame.width - 20, frame.y + 4, 16, 28), (frame.x + 2, frame.y + frame.height - 18, frame.width / 3 + 40, 16),
        ]
        for place in places {
            let at = frame.offset(distance: place.distance, azimuth: place.azimuth)
            guard frame.contains(at, inset: 2) else { continue }
            d.setColour(PhotoPDF.ink)
            d.circle(centre: at, radius: 1.8, fill: true)
            let label = "\(place.name) (\(PhotoPDF.distance(place.distance)))"
            let labelWidth = d.textWidth(label, size: 6.5), labelHeight = 7.0
            let candidates = [(at.x + 3, at.y + 2.2), (at.x - 3 - labelWidth, at.y + 2.2),
                              (at.x - labelWidth / 2, at.y - 3.5), (at.x - labelWidth / 2, at.y + 9.5)]
            let spot = candidates.first { candidate in
                let box = (x: candidate.0, y: candidate.1 - labelHeight + 1.5, width: labelWidth, height: labelHeight)
                let inside = box.x >= frame.x + 2 && box.x + box.width <= frame.x + frame.width - 2 && box.y >= frame.y + 2
                    && box.y + box.height <= frame.y + frame.height - 2
                return inside && !taken.contains { other in
                    box.x < other.x + other.width && other.x < box.x + box.width && box.y < other.y + other.height && other.y < box.y + box.height
                }
            }
            guard let spot else { continue }
            taken.append((spot.0, spot.1 - labelHeight + 1.5, labelWidth, labelHeight))
            d.text(label, x: spot.0, y: spot.1, size: 6.5)
        }
        if !known {
            d.setColour(PhotoPDF.muted)
            let text = "No gazetteer on this server"
            d.text(text, x: frame.x + (frame.width - d.textWidth(text, size: 7)) / 2, y: frame.y + 14, size: 7)
        }
        d.setColour(.white)
        d.circle(centre: centre, radius: 3.2, fill: true)
        d.setColour(point)
        d.circle(centre: centre, radius: 2.3, fill: true)
        border(frame, in: d)
    }
}
