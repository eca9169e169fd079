import Foundation

extension ExternalTool {
    /// Sets a photo's DateTimeOriginal (and sub-seconds) the way a camera writes them.
    public static func setCaptureTime(_ url: URL, _ dateTime: String, subSeconds: String? = nil) async throws {
        var arguments = ["exiftool", "-q", "-overwrite_original", "-DateTimeOriginal=\(dateTime)"]
        if let subSeconds { arguments.append("-SubSecTimeOriginal=\(subSeconds)") }
        try await run(arguments + [url.path])
    }

    /// Makes a synthetic camera photo with scripts/make-photo.
    public static func makePhoto(_ url: URL, time: String, payload: String? = nil, size: String) async throws {
        try await run([packageRoot.appendingPathComponent("scripts/make-photo").path, url.path, time, payload ?? "", size])
    }

    /// The GPS position exiftool reads from a photo or sidecar, signed degrees.
    public static func position(_ url: URL) async throws -> (latitude: Double, longitude: Double)? {
        let tags = try await exiftoolTags(url)
        func value(_ name: String) -> Double? {
            tags.first { $0.key.hasSuffix(":\(name)") && !$0.key.hasPrefix("Composite") }.flatMap { Double($0.value) }
        }
        guard var lat = value("GPSLatitude"), var lon = value("GPSLongitude") else { return nil }
        if tags.first(where: { $0.key.hasSuffix(":GPSLatitudeRef") })?.value == "S" { lat = -abs(lat) }
        if tags.first(where: { $0.key.hasSuffix(":GPSLongitudeRef") })?.value == "W" { lon = -abs(lon) }
        return (lat, lon)
    }
}
