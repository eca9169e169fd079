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
            time: Self.iso(query.time),
            elements: SkyView.Elements(satellites: considered.count, oldestEpoch: epochs.min().map(Self.iso), newestEpoch: epochs.max().map(Self.iso)),
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
            guard let date = instant(value) else {
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

    /// An ISO 8601 time with its zone (`Z` or an offset), with or without fractional seconds.
    /// A date or time that does not exist (February 30, 24:00, a leap second) is refused, not rolled over.
    static func instant(_ text: String) -> Date? {
        let upper = text.uppercased()
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = plain.date(from: upper) ?? fractional.date(from: upper), upper.count >= 20 else { return nil }
        // The zone as written: Z, or ±hh:mm after the seconds (and their fraction).
        var offset = 0
        if !upper.hasSuffix("Z") {
            let zone = upper.suffix(6)
            guard let sign = zone.first, sign == "+" || sign == "-", let hours = Int(zone.dropFirst().prefix(2)), let minutes = Int(zone.suffix(2))
            else { return nil }
            offset = (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
        }
        guard let zone = TimeZone(secondsFromGMT: offset) else { return nil }
        let echo = ISO8601DateFormatter()
        echo.formatOptions = [.withInternetDateTime]
        echo.timeZone = zone
        return echo.string(from: date).prefix(19) == upper.prefix(19) ? date : nil
    }

    /// A time in UTC, with milliseconds only when it has a fraction of a second.
    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        let whole = date.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970
        formatter.formatOptions = whole ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
