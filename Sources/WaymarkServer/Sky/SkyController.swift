import Foundation
import Vapor
import WaymarkAPI
import WaymarkCore

/// `GET /api/v1/sky` (issue #15): the GPS, Galileo, GLONASS and BeiDou satellites above a place
/// at a time, from the orbit data given with `waymark serve --tle`. No account is needed and
/// nothing is stored; without orbit data every request answers 404 `no_orbit_data`.
struct SkyController: Sendable {
    /// The loaded element sets, or `nil` when the server was started without `--tle`.
    let orbits: OrbitData?
    /// The time shown when the request names none.
    let clock: WallClock

    /// The parameters of one request, checked.
    struct Query: Equatable {
        var observer: SkyObserver
        var time: Date
        /// `nil`: all four.
        var constellation: GNSSConstellation?
    }

    static let altitudes = -500.0...10_000.0
    /// The times asked for may lie from Sputnik to 2100: far beyond, SGP4's deep-space integrator
    /// takes a step per 12 hours from the epoch (a request would take seconds), and no element
    /// set says anything there anyway.
    static let times = Date(timeIntervalSince1970: -386_380_800)...Date(timeIntervalSince1970: 4_102_444_800)

    func register(on routes: ContractRoutes) {
        routes.on("sky", use: sky)
    }

    @Sendable func sky(_ request: Request) async throws -> Response {
        let query = try Self.query(request, now: clock.now())
        guard let orbits else {
            throw APIError(.notFound, .noOrbitData,
                           "This server has no orbit data: start the server with --tle FILE (e.g. CelesTrak's GNSS group, https://celestrak.org/NORAD/elements/gp.php?GROUP=gnss&FORMAT=tle).")
        }
        // Propagating every satellite (SGP4's deep-space integration steps half a day at a time from
        // each set's epoch) takes milliseconds, up to a tenth of a second in a debug build: not on
        // the event loop.
        let view = try await request.application.threadPool.runIfActive { Self.view(orbits, query) }
        if view.failures > 0 {
            request.logger.debug("satellites left out of the sky map", metadata: ["unpropagated": "\(view.failures)"])
        }
        return try Response.json(view.answer)
    }

    /// The answer for checked parameters, and how many satellites could not be propagated.
    static func view(_ orbits: OrbitData, _ query: Query) -> (answer: SkyView, failures: Int) {
        let (satellites, failures) = SkyMap.visible(orbits.catalogue, from: query.observer, at: query.time, constellation: query.constellation)
        let considered = orbits.catalogue.satellites.filter { query.constellation == nil || $0.constellation == query.constellation }
        let epochs = considered.map(\.elements.epoch)
        let shown: [SkyView.Satellite] = satellites.compactMap { satellite in
            guard let constellation = satellite.constellation else { return nil }
            let epoch = orbits.epoch(of: satellite.catalogNumber) ?? query.time
            return SkyView.Satellite(name: satellite.name, catalogNumber: satellite.catalogNumber, constellation: constellation.rawValue,
                                     azimuth: satellite.azimuth, elevation: satellite.elevation,
                                     epochAgeDays: abs(query.time.timeIntervalSince(epoch)) / 86_400)
        }
        let answer = SkyView(
            time: InternetTime.text(query.time),
            elements: SkyView.Elements(satellites: considered.count, oldestEpoch: epochs.min().map(InternetTime.text), newestEpoch: epochs.max().map(InternetTime.text)),
            satellites: shown)
        return (answer, failures.count)
    }

    /// Reads and checks the parameters, naming the one at fault.
    static func query(_ request: Request, now: Date) throws -> Query {
        func text(_ name: String) -> String? { try? request.query.get(String.self, at: name) }
        func number(_ name: String, _ range: ClosedRange<Double>, _ rule: String) throws -> Double? {
            guard let text = text(name) else { return nil }
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, range.contains(value) else {
                throw APIError.badRequest(.invalidQuery, "\(name) must be \(rule).")
            }
            return value
        }
        guard let latitude = try number("latitude", -90...90, "a number from −90 to 90") else {
            throw APIError.badRequest(.invalidQuery, "latitude is required: ?latitude=46.05&longitude=14.5.")
        }
        guard let longitude = try number("longitude", -180...180, "a number from −180 to 180") else {
            throw APIError.badRequest(.invalidQuery, "longitude is required: ?latitude=46.05&longitude=14.5.")
        }
        let altitude = try number("altitude", altitudes, "a number of metres from −500 to 10000") ?? 0
        var time = now
        if let value = text("time") {
            guard let date = InternetTime.date(value) else {
                throw APIError.badRequest(.invalidQuery, "time must be an ISO 8601 time with its zone, e.g. 2022-02-03T12:00:00Z.")
            }
            guard times.contains(date) else {
                throw APIError.badRequest(.invalidQuery, "time must lie between 1957 and 2100.")
            }
            time = date
        }
        var constellation: GNSSConstellation?
        if let value = text("constellation"), value != "all" {
            guard let chosen = GNSSConstellation(rawValue: value) else {
                throw APIError.badRequest(.invalidQuery, "constellation must be gps, galileo, glonass, beidou or all.")
            }
            constellation = chosen
        }
        return Query(observer: SkyObserver(latitude: latitude, longitude: longitude, height: altitude), time: time, constellation: constellation)
    }
}
