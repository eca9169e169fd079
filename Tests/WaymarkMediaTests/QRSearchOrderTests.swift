import Foundation
import Testing
import WaymarkCore
@testable import WaymarkMedia

@Suite("Which photos are searched for QR codes first")
struct QRSearchOrderTests {
    static func photo(_ name: String, _ seconds: Double?) -> InspectedPhoto {
        var photo = InspectedPhoto(url: URL(fileURLWithPath: "/tmp/\(name)"), displayName: name)
        photo.camera = seconds.map { CameraTime(seconds: $0) }
        return photo
    }

    @Test("the first and last photos of each shooting session, in camera-time order, not file order")
    func edgesOfSessions() {
        // Two sessions of 30 photos, 3 h apart, listed out of order, plus a photo without a time.
        var photos = (0..<30).map { Self.photo("B\($0)", 20_000 + Double($0) * 10) }
        photos += (0..<30).map { Self.photo("A\($0)", 1_000 + Double($0) * 10) }
        photos.append(Self.photo("undated", nil))
        let chosen = Set(Geotagger.likelyQRPhotos(photos, count: 3).map { photos[$0].displayName })
        #expect(chosen == ["A0", "A1", "A2", "A27", "A28", "A29", "B0", "B1", "B2", "B27", "B28", "B29"])
    }

    @Test("a short session is searched whole, once")
    func shortSession() {
        let photos = (0..<4).map { Self.photo("P\($0)", Double($0)) }
        #expect(Geotagger.likelyQRPhotos(photos, count: 3).sorted() == [0, 1, 2, 3])
    }
}
