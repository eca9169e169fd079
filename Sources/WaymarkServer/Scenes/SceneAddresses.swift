import Foundation
import WaymarkAPI
import WaymarkCore

/// Scene addresses (DESIGN §3.9) from the server's offline gazetteer (``GazetteerLoader``), and
/// on a scene's own page the street address from the optional geocoder (``StreetAddresses``).
/// Without a gazetteer, scenes have no address.
struct SceneAddresses: Sendable {
    let loader: GazetteerLoader
    /// `waymark serve --nominatim-url`'s geocoder, or `nil` (no network call for addresses).
    var street: StreetAddresses? = nil

    /// The address of a point in English, or `nil` without a gazetteer; with `streetLanguage`
    /// (a scene's own page) and a geocoder, also the street address in that language.
    func address(latitude: Double, longitude: Double, streetLanguage: String? = nil) async -> SceneAddressDTO? {
        guard let gazetteer = await loader.gazetteer(), let address = gazetteer.address(latitude: latitude, longitude: longitude) else { return nil }
        var dto = Self.dto(address)
        if let street, let streetLanguage {
            dto.street = await street.address(latitude: latitude, longitude: longitude, language: streetLanguage)
        }
        return dto
    }

    /// The API's form of an address: the line and the parts as WaymarkCore words them.
    static func dto(_ address: Address) -> SceneAddressDTO {
        let description = address.placeDescription, place = description.place
        let words = AddressWords.english
        return SceneAddressDTO(
            line: AddressLine.format(address, words: words), place: place.name, region: place.admin1,
            country: words.locale.localizedString(forRegionCode: place.countryCode) ?? place.countryCode, countryCode: place.countryCode,
            distance: (description.distance * 10).rounded() / 10, bearing: description.azimuth.map { ($0 * 10).rounded() / 10 },
            attribution: Gazetteer.attribution)
    }
}
