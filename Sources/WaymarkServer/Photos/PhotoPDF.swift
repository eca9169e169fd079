import Foundation
import WaymarkAPI
import WaymarkCore
import WaymarkMedia

/// What the PDF of a photo shows (DESIGN §3.10), gathered by ``PhotoController`` before it is drawn.
struct PhotoReport: Sendable {
    /// A place of the gazetteer near the photo: how far, and in which direction from the photo
    /// (degrees from true north), it lies.
    struct NearbyPlace: Sendable, Equatable {
        var name: String
        var countryCode: String
        var distance: Double
        var azimuth: Double

        /// Up to `count` places nearest to the photo, nearest first, looked for within 25 km and
        /// then farther (100 km, 400 km) until one is found.
        static func nearest(in gazetteer: Gazetteer, latitude: Double, longitude: Double, count: Int = 5) -> [NearbyPlace] {
            for radius in [25_000.0, 100_000, 400_000] {
                let found = gazetteer.nearest(latitude: latitude, longitude: longitude, count: count, within: radius)
                if !found.isEmpty {
                    return found.map { near in
                        let line = Geodesy.inverse((latitude, longitude), (near.place.latitude, near.place.longitude))
                        return NearbyPlace(name: near.place.name, countryCode: near.place.countryCode, distance: line.distance, azimuth: line.startAzimuth ?? 0)
                    }
                }
            }
            return []
        }
    }

    /// What the viewer is shown of the photo's receipt.
    enum Receipt: Sendable {
        /// The receipt (to the owner, officers and admins, as `GET …/receipt`).
        case shown(PhotoReceipt)
        /// The photo was stored before the server signed receipts.
        case none
        /// The viewer may see the photo but not its receipt.
        case notForViewer
    }

    var photo: Photo
    var owner: PhotoDTO.Owner
    /// The task the photo belongs to, when it does and the viewer may know (its owner, officers, admins).
    var task: TaskRecord?
    var receipt: Receipt
    /// The photo's "large" derivative (a JPEG without metadata); `nil` when it cannot be read.
    var image: Data?
    /// The gazetteer's places nearest to the photo; `nil` when the server has no gazetteer or the photo no place.
    var places: [NearbyPlace]?
}

/// The PDF of a photo (DESIGN §3.10), one A4 page in portrait when it fits: the title, the photo
/// scaled to fit, all of its data, the receipt with how to check it, and two small vector maps
/// (the server has no map tiles and no network) — the photo's place with its accuracy, the
/// camera's direction and the centroid, and the surroundings with the nearest places of the
/// offline gazetteer. Drawn with cairo through the shim (``PDFDocument``); text is real text, so
/// the PDF can be searched and read back (pdftotext).
enum PhotoPDF {
    /// The page's margin in points.
    static let margin = 42.0
    /// The width between the margins.
    static var contentWidth: Double { PDFDocument.a4.width - 2 * margin }
    /// Where the photo's box starts, under the title.
    static let photoTop = 92.0
    /// The photo's box is at most this high.
    static let photoMaxHeight = 225.0
    /// The maps' column, at the right of the data.
    static let mapWidth = 199.0

    static let ink = PDFDocument.Colour(hex: 0x1F2328)
    static let muted = PDFDocument.Colour(hex: 0x59636E)
    static let rule = PDFDocument.Colour(hex: 0xD0D7DE)

    /// Where the photo of `width` × `height` pixels is drawn: as large as fits the box, centred.
    static func photoBox(width: Int, height: Int) -> (x: Double, y: Double, width: Double, height: Double) {
        let scale = min(contentWidth / Double(max(width, 1)), photoMaxHeight / Double(max(height, 1)))
        let drawnWidth = Double(width) * scale, drawnHeight = Double(height) * scale
        return (margin + (contentWidth - drawnWidth) / 2, photoTop, drawnWidth, drawnHeight)
    }

    /// Draws the report.
    static func render(_ report: PhotoReport) throws(PDFError) -> Data {
        let document = try PDFDocument()
        document.setTitle(report.photo.title)
        var page = Page(document: document)
        page.header(report)
        page.photo(report)
        page.dataAndMaps(report)
        page.receipt(report)
        return try document.finish()
    }

    // MARK: Text

    /// `text` in lines of at most `width` points: broken between words, and inside a word
    /// (a hash, a signature) that is wider than a line by itself.
    static func wrap(_ text: String, width: Double, size: Double, bold: Bool = false, in document: PDFDocument) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if document.textWidth(candidate, size: size, bold: bold) <= width {
                    line = candidate
                    continue
                }
                if !line.isEmpty { lines.append(line) }
                line = ""
                // A word wider than the line is cut where it must be.
                var rest = String(word)
                while document.textWidth(rest, size: size, bold: bold) > width, rest.count > 1 {
                    var cut = rest.count - 1
                    while cut > 1, document.textWidth(String(rest.prefix(cut)), size: size, bold: bold) > width { cut -= 1 }
                    lines.append(String(rest.prefix(cut)))
                    rest = String(rest.dropFirst(cut))
                }
                line = rest
            }
            lines.append(line)
        }
        return lines
    }

    /// `text` cut to `width` points with an ellipsis when longer.
    static func fit(_ text: String, width: Double, size: Double, bold: Bool, in document: PDFDocument) -> String {
        guard document.textWidth(text, size: size, bold: bold) > width else { return text }
        var kept = text
        while !kept.isEmpty, document.textWidth(kept + "…", size: size, bold: bold) > width { kept.removeLast() }
        return kept + "…"
    }

    // MARK: Values

    static func utc(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }

    static func number(_ value: Double, digits: Int) -> String { String(format: "%.\(digits)f", value) }

    /// A distance in metres or kilometres.
    static func distance(_ metres: Double) -> String {
        if metres < 1_000 { return "\(Int(metres.rounded())) m" }
        return metres < 10_000 ? number(metres / 1_000, digits: 1) + " km" : "\(Int((metres / 1_000).rounded())) km"
    }

    static func bytes(_ count: Int) -> String {
        let grouped = count.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        if count < 1_000_000 { return "\(grouped) bytes" }
        return number(Double(count) / 1_000_000, digits: 1) + " MB (\(grouped) bytes)"
    }

    /// The rows of the data table: every value the server keeps of the photo.
    static func rows(_ report: PhotoReport) -> [(label: String, value: String)] {
        let photo = report.photo
        var rows: [(String, String)] = [
            // In full: the heading cuts a long one.
            ("Title", photo.title),
            ("Photo id", photo.id.uuidString.lowercased()),
            ("Owner", report.owner.displayName.isEmpty ? report.owner.username : "\(report.owner.displayName) (\(report.owner.username))"),
            ("Taken", utc(photo.capturedAt)),
            ("Uploaded", utc(photo.uploadedAt)),
        ]
        if let place = photo.place {
            rows.append(("Latitude", number(place.latitude, digits: 6) + "°"))
            rows.append(("Longitude", number(place.longitude, digits: 6) + "°"))
            rows.append(("Altitude", place.altitude.map { number($0, digits: 1) + " m" } ?? "not given"))
            rows.append(("Accuracy", place.accuracy.map { "± " + number($0, digits: 1) + " m" } ?? "not given"))
        } else {
            rows.append(("Position", "none: the photo was uploaded without a place"))
        }
        rows.append(("Azimuth", photo.azimuth.map { number($0, digits: 1) + "° from true north" } ?? "not given"))
        rows.append(("Tilt", photo.tilt.map { number($0, digits: 1) + "°" + ($0 > 0 ? " (above the horizon)" : $0 < 0 ? " (below the horizon)" : " (level)") } ?? "not given"))
        if let centroid = photo.centroid {
            rows.append(("Centroid", number(centroid.latitude, digits: 6) + "°, " + number(centroid.longitude, digits: 6) + "°"))
            rows.append(("Samples", "\(centroid.samples) fixes (convex hull)"))
        } else {
            rows.append(("Centroid", "none"))
        }
        if let nearest = report.places?.first {
            rows.append(("Nearest place", "\(nearest.name), \(nearest.countryCode) (\(distance(nearest.distance)))"))
        }
        rows.append(("Size", "\(photo.width) × \(photo.height) pixels, \(bytes(photo.bytes))"))
        rows.append(("Type", photo.mime))
        rows.append(("Visibility", photo.visibility.rawValue))
        if let task = report.task {
            rows.append(("Task", "\(task.name) (\(task.status.rawValue.replacingOccurrences(of: "_", with: " ")), due \(task.dueDate))"))
        }
        return rows
    }

    /// The receipt's rows, and the line that says how to check it.
    static func receiptRows(_ receipt: PhotoReceipt) -> [(label: String, value: String)] {
        [
            ("SHA-256 image", receipt.sha256Image),
            ("SHA-256 metadata", receipt.sha256Metadata),
            ("Received", receipt.receivedAt),
            ("Signature", receipt.signature.base64EncodedString()),
            ("Public key", receipt.publicKey.base64EncodedString() + "  (" + PhotoReceipt.algorithm + ", RFC 8032)"),
        ]
    }
}

extension PhotoPDF {
    /// The page being filled, top to bottom; a section that does not fit starts a new page.
    struct Page {
        let document: PDFDocument
        /// The top of what comes next.
        var y = PhotoPDF.margin

        var bottom: Double { PDFDocument.a4.height - PhotoPDF.margin }

        /// Starts a new page when `height` points do not fit under `y`.
        mutating func ensure(_ height: Double) {
            guard y + height > bottom else { return }
            document.newPage()
            y = PhotoPDF.margin
        }

        mutating func header(_ report: PhotoReport) {
            let d = document
            d.setColour(PhotoPDF.ink)
            d.text(PhotoPDF.fit(report.photo.title, width: PhotoPDF.contentWidth, size: 18, bold: true, in: d), x: PhotoPDF.margin, y: 60, size: 18, bold: true)
            d.setColour(PhotoPDF.muted)
            d.text("Waymark photo report", x: PhotoPDF.margin, y: 78, size: 9)
            y = PhotoPDF.photoTop
        }

        mutating func photo(_ report: PhotoReport) {
            let d = document, photo = report.photo
            let box = PhotoPDF.photoBox(width: photo.width, height: photo.height)
            var problem: String?
            if let image = report.image {
                do {
                    try d.jpeg(image, x: box.x, y: box.y, width: box.width, height: box.height)
                } catch {
                    problem = "The photo cannot be shown: \(error)"
                }
            } else {
                problem = "The photo's image is missing on the server."
            }
            if let problem {
                d.setColour(PDFDocument.Colour(hex: 0xF6F8FA))
                d.rectangle(x: box.x, y: box.y, width: box.width, height: box.height, fill: true)
                d.setColour(PhotoPDF.muted)
                var line = box.y + box.height / 2
                for text in PhotoPDF.wrap(problem, width: box.width - 16, size: 9, in: d) {
                    d.text(text, x: box.x + 8, y: line, size: 9)
                    line += 12
                }
            }
            d.setColour(PhotoPDF.rule)
            d.setLine(width: 0.5)
            d.rectangle(x: box.x, y: box.y, width: box.width, height: box.height, fill: false)
            y = box.y + box.height + 18
        }

        /// A section's heading.
        mutating func heading(_ text: String, x: Double, y top: Double) {
            document.setColour(PhotoPDF.ink)
            document.text(text, x: x, y: top + 10, size: 11, bold: true)
        }

        /// Label–value rows from `top` in a column `width` wide; returns the y under them.
        func table(_ rows: [(label: String, value: String)], x: Double, top: Double, width: Double, labelWidth: Double, size: Double) -> Double {
            let d = document, lineHeight = size * 1.35
            var line = top + size
            for row in rows {
                d.setColour(PhotoPDF.muted)
                d.text(row.label, x: x, y: line, size: size)
                d.setColour(PhotoPDF.ink)
                for text in PhotoPDF.wrap(row.value, width: width - labelWidth, size: size, in: d) {
                    d.text(text, x: x + labelWidth, y: line, size: size)
                    line += lineHeight
                }
            }
            return line - size
        }

        /// The data at the left, the maps at the right.
        mutating func dataAndMaps(_ report: PhotoReport) {
            let left = PhotoPDF.margin, mapX = PhotoPDF.margin + PhotoPDF.contentWidth - PhotoPDF.mapWidth
            let dataWidth = mapX - left - 14
            ensure(300)
            let top = y
            heading("Photo data", x: left, y: top)
            let dataBottom = table(PhotoPDF.rows(report), x: left, top: top + 18, width: dataWidth, labelWidth: 84, size: 8.5)
            heading("Map", x: mapX, y: top)
            let mapBottom = PhotoPDFMap.draw(report, in: document, x: mapX, y: top + 18, width: PhotoPDF.mapWidth)
            y = max(dataBottom, mapBottom) + 16
        }

        mutating func receipt(_ report: PhotoReport) {
            let d = document, x = PhotoPDF.margin, width = PhotoPDF.contentWidth
            switch report.receipt {
            case .shown(let receipt):
                let rows = PhotoPDF.receiptRows(receipt)
                let check = "To check it, save GET /api/v1/photos/\(report.photo.id.uuidString.lowercased())/receipt as receipt.json and run "
                    + "waymark verify-receipt receipt.json --photo <the original file> --public-key <the key above, or --server <this server>>. "
                    + "The signature covers both hashes and the time received; a changed byte of the photo or of its data fails the check."
                let checkLines = PhotoPDF.wrap(check, width: width, size: 8, in: d)
                ensure(18 + Double(rows.count + 1) * 9.8 + Double(checkLines.count) * 10.5 + 6)
                heading("Receipt", x: x, y: y)
                var bottom = table(rows, x: x, top: y + 18, width: width, labelWidth: 84, size: 7.2)
                bottom += 8
                d.setColour(PhotoPDF.muted)
                for line in checkLines {
                    bottom += 10.5
                    d.text(line, x: x, y: bottom, size: 8)
                }
                y = bottom + 12
            case .none, .notForViewer:
                let text = if case .none = report.receipt {
                    "This photo was stored before the server signed receipts, so it has none."
                } else {
                    "The signed receipt (SHA-256 of the image and of its data, the server's Ed25519 signature) is in the PDF for the photo's owner and for officers."
                }
                let lines = PhotoPDF.wrap(text, width: width, size: 8, in: d)
                ensure(18 + Double(lines.count) * 10.5 + 6)
                heading("Receipt", x: x, y: y)
                var line = y + 18
                d.setColour(PhotoPDF.muted)
                for text in lines {
                    line += 8
                    d.text(text, x: x, y: line, size: 8)
                    line += 2.5
                }
                y = line + 12
            }
        }
    }
}
