import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import WaymarkAPI

/// Street addresses for a scene's own page from a Nominatim-compatible reverse geocoder
/// (DESIGN §3.9, `waymark serve --nominatim-url`).
///
/// Off unless configured: each lookup tells that server a scene's coordinates — never who is
/// asking, and only for a scene's own page, not for lists. Nominatim's usage policy (at most one
/// request a second, a User-Agent that names the application, results cached) is kept here:
/// requests go one at a time, each ``spacing`` after the previous one *ended* (so that however
/// late the previous one reached the geocoder, the two arrive at least that far apart), and a
/// page whose turn would come later than ``longestWait`` — or whose turn a slow request before
/// it has pushed back further than that — goes without the street this time. Answers are kept
/// for a day, failures for a minute, so a geocoder that is down is not asked on every page view.
///
/// Every answer is outside input: read up to ``maxAnswerBytes`` and checked for shape. An error
/// status, an answer off the contract or none within ``timeout`` means "no street address" —
/// logged with its reason, never an error of the page.
actor StreetAddresses {
    /// What one lookup came to.
    enum Outcome: Sendable, Equatable {
        /// The geocoder's address for the point.
        case found(StreetAddressDTO)
        /// The geocoder answered that it has no address there (`{"error": "Unable to geocode"}`, e.g. at sea).
        case nothingThere
        /// No usable answer: why, for the log.
        case failed(String)
        /// Not asked: the requests before it took too long (not kept; the next view asks again).
        case noTurn

        var address: StreetAddressDTO? {
            if case let .found(address) = self { address } else { nil }
        }
    }

    let geocoder: ServiceURL
    private let http: HTTPClient
    private let logger: Logger
    private var cache: [Key: (outcome: Outcome, until: ContinuousClock.Instant)] = [:]
    private var inFlight: [Key: Task<Outcome, Never>] = [:]
    private var nextTurn = ContinuousClock.now
    /// Ends when the latest request given a turn has ended (``spacing`` later if it was sent): the next one waits for it.
    private var queueTail: Task<Void, Never>?

    /// The time between two requests to the geocoder (Nominatim's policy: one a second at most).
    static let spacing: Duration = .seconds(1)
    /// How long a page waits for its turn at most.
    static let longestWait: Duration = .seconds(1)
    /// How long one request may take, connecting included.
    static let timeout: TimeAmount = .seconds(3)
    /// The largest answer read (a reverse answer is about 1 KiB).
    static let maxAnswerBytes = 64 * 1024
    /// How long an answer, and a failure, is kept.
    static let keepAnswer: Duration = .seconds(24 * 3600), keepFailure: Duration = .seconds(60)
    /// The most points kept at once.
    static let cacheLimit = 10_000
    /// Names the application, as the usage policy asks.
    static let userAgent = "Waymark (self-hosted photo and place server; street addresses of rephotography scenes)"
    /// The credit when the answer carries no `licence` (Nominatim's data is OpenStreetMap's).
    static let defaultAttribution = "Data © OpenStreetMap contributors, ODbL 1.0. https://osm.org/copyright"

    init(geocoder: ServiceURL, http: HTTPClient, logger: Logger) {
        self.geocoder = geocoder
        self.http = http
        self.logger = logger
    }

    /// The street address of a point in `language` (a language tag such as `de`), or `nil`.
    func address(latitude: Double, longitude: Double, language: String) async -> StreetAddressDTO? {
        let key = Key(latitude: latitude, longitude: longitude, language: language)
        let now = ContinuousClock.now
        if let kept = cache[key], kept.until > now { return kept.outcome.address }
        if let running = inFlight[key] { return await running.value.address }

        let turn = max(now, nextTurn)
        guard turn - now <= Self.longestWait else { return nil }
        nextTurn = turn + Self.spacing
        let url = requestURL(key)
        let http = self.http, previous = queueTail, latest = now + Self.longestWait
        let task = Task<Outcome, Never> {
            await previous?.value
            try? await Task.sleep(until: turn, clock: .continuous)
            guard ContinuousClock.now <= latest + Self.spacing else { return .noTurn }
            return await Self.fetch(url, http: http)
        }
        queueTail = Task {
            // Only a request that was sent holds the next one back.
            if await task.value != .noTurn { try? await Task.sleep(for: Self.spacing) }
        }
        inFlight[key] = task
        let outcome = await task.value
        inFlight[key] = nil
        switch outcome {
        case .noTurn:
            return nil
        case let .failed(reason):
            logger.warning("street address lookup failed", metadata: ["geocoder": "\(geocoder.origin)", "reason": "\(reason)"])
        case .found, .nothingThere:
            break
        }
        keep(outcome, for: key)
        return outcome.address
    }

    /// `GET {geocoder}/reverse?format=jsonv2&lat=…&lon=…&zoom=18&addressdetails=0&accept-language=…`.
    func requestURL(_ key: Key) -> String {
        var components = URLComponents(string: geocoder.url + "/reverse") ?? URLComponents()
        components.queryItems = [
            URLQueryItem(name: "format", value: "jsonv2"),
            URLQueryItem(name: "lat", value: String(format: "%.5f", Double(key.latitude) / Key.scale)),
            URLQueryItem(name: "lon", value: String(format: "%.5f", Double(key.longitude) / Key.scale)),
            URLQueryItem(name: "zoom", value: "18"),
            URLQueryItem(name: "addressdetails", value: "0"),
            URLQueryItem(name: "accept-language", value: key.language),
        ]
        return components.string ?? geocoder.url
    }

    private func keep(_ outcome: Outcome, for key: Key) {
        let now = ContinuousClock.now
        if cache.count >= Self.cacheLimit { cache = cache.filter { $0.value.until > now } }
        if cache.count >= Self.cacheLimit { cache.removeAll() }
        if case .failed = outcome {
            cache[key] = (outcome, now + Self.keepFailure)
        } else {
            cache[key] = (outcome, now + Self.keepAnswer)
        }
    }

    private static func fetch(_ url: String, http: HTTPClient) async -> Outcome {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: userAgent)
        request.headers.add(name: "Accept", value: "application/json")
        do {
            let response = try await http.execute(request, timeout: timeout)
            guard response.status == .ok else { return .failed("the geocoder answered \(response.status.code)") }
            let body = try await response.body.collect(upTo: maxAnswerBytes)
            return parse(Data(buffer: body))
        } catch let error as NIOTooManyBytesError {
            return .failed("the answer is larger than \(maxAnswerBytes) bytes (\(error))")
        } catch {
            return .failed("no answer (\(error))")
        }
    }

    /// Reads a reverse-geocoding answer (Nominatim's `jsonv2`): `display_name` is the line,
    /// `licence` the credit; an `error` member means there is no address at that point.
    static func parse(_ data: Data) -> Outcome {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            return .failed("the answer is not a JSON object")
        }
        if object["error"] != nil { return .nothingThere }
        guard let name = object["display_name"] as? String else { return .failed("the answer has no display_name text") }
        let line = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !line.isEmpty, line.count <= 1_000, !line.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return .failed("display_name is empty, longer than 1,000 characters or has control characters")
        }
        var attribution = defaultAttribution
        if let licence = object["licence"] as? String {
            let trimmed = licence.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty, trimmed.count <= 300, !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                attribution = trimmed
            }
        }
        return .found(StreetAddressDTO(line: line, attribution: attribution))
    }

    /// The language of a request's `Accept-Language`: its first tag when that is a plain language
    /// tag (`de`, `en-GB`, `zh-Hant-TW`), else English.
    static func language(acceptLanguage header: String?) -> String {
        guard let header else { return "en" }
        let first = header.split(separator: ",", maxSplits: 1).first.map { $0.split(separator: ";").first ?? "" } ?? ""
        let tag = first.trimmingCharacters(in: .whitespaces)
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let primary = subtags.first, (2...3).contains(primary.count), primary.allSatisfy({ $0.isASCII && $0.isLetter }),
              subtags.dropFirst().allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }),
              subtags.count <= 4
        else { return "en" }
        return tag.lowercased()
    }

    /// A point to about a metre (five decimals) and a language: the unit of caching.
    struct Key: Hashable, Sendable {
        static let scale = 100_000.0
        let latitude: Int
        let longitude: Int
        let language: String

        init(latitude: Double, longitude: Double, language: String) {
            self.latitude = Int((latitude * Self.scale).rounded())
            self.longitude = Int((longitude * Self.scale).rounded())
            self.language = language
        }
    }
}
