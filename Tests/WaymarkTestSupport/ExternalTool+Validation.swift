import Foundation

extension ExternalTool {
    /// The warnings of `exiftool -validate` for a file (its summary line aside).
    public static func validationWarnings(_ url: URL) async throws -> Set<String> {
        let output = await String(decoding: try run(["exiftool", "-validate", "-warning", "-a", "-s", url.path]), as: UTF8.self)
        return Set(output.split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == "Warning" else { return nil }
            return parts[1].trimmingCharacters(in: .whitespaces)
        })
    }

    /// The GPS position exiv2's own CLI reads from a photo, signed degrees from its rationals.
    public static func exiv2Position(_ url: URL) async throws -> (latitude: Double, longitude: Double)? {
        let output = await String(decoding: try run(["exiv2", "-q", "-Pkv", "-g", "Exif.GPSInfo.GPSL", url.path], allowFailure: true), as: UTF8.self)
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        func degrees(_ key: String, negative: String) -> Double? {
            guard let text = values["Exif.GPSInfo.\(key)"] else { return nil }
            var total = 0.0, scale = 1.0
            for rational in text.split(separator: " ") {
                let pair = rational.split(separator: "/")
                guard pair.count == 2, let n = Double(pair[0]), let d = Double(pair[1]), d != 0 else { return nil }
                total += n / d / scale
                scale *= 60
            }
            return values["Exif.GPSInfo.\(key)Ref"] == negative ? -total : total
        }
        guard let lat = degrees("GPSLatitude", negative: "S"), let lon = degrees("GPSLongitude", negative: "W") else { return nil }
        return (lat, lon)
    }
}
