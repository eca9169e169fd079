import Foundation
import WaymarkAPI
import WaymarkCore

/// Scene addresses (DESIGN §3.9) from the server's offline gazetteer (``GazetteerLoader``).
/// Without a gazetteer, scenes have no address.
struct SceneAddresses: Sendable {
    let loader: GazetteerLoader

    /// The address of a point in English, or `nil` without a gazetteer.
    func address(latitude: Double, longitude: Double) async -> SceneAddressDTO? {
        guard let gazetteer = await loader.gazetteer(), let address = gazetteer.address(latitude: latitude, longitude: longitude) else { return nil }
        return Self.dto(address)
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
