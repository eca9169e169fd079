import Crypto
import Foundation
import Vapor

/// `/pair` (DESIGN §3.12): the page a phone opens from the code `waymark serve` prints, before it
/// trusts Waymark's certificate authority. It says, for the phone's platform first and in the
/// visitor's language, how to install and trust the CA, then opens the HTTPS address.
///
/// It is served on the plain-HTTP port, where nothing else of the app is reachable yet, so it is
/// one self-contained document: inline style, no script, no image (a strict CSP says so).
struct PairingPage: Sendable {
    enum Platform: String, CaseIterable, Sendable {
        case iOS = "ios", android, computer

        /// The platform a `User-Agent` names (iPadOS Safari says "Macintosh" and is shown the
        /// computer's steps first, with the iPhone's a tap away).
        init(userAgent: String?) {
            let agent = userAgent?.lowercased() ?? ""
            if agent.contains("iphone") || agent.contains("ipad") || agent.contains("ipod") { self = .iOS }
            else if agent.contains("android") { self = .android }
            else { self = .computer }
        }
    }

    enum Language: String, CaseIterable, Sendable {
        case en, de

        /// `?lang=` when it names a language Waymark speaks, else the first of `Accept-Language`
        /// that it speaks (quality values respected), else English.
        init(query: String?, acceptLanguage: String?) {
            if let query, let chosen = Language(rawValue: query.lowercased()) { self = chosen; return }
            let ranked = (acceptLanguage ?? "").split(separator: ",").enumerated().compactMap { index, item -> (Double, Int, Language)? in
                let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let tag = parts.first?.lowercased().split(separator: "-").first, let language = Language(rawValue: String(tag)) else { return nil }
                let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
                return quality > 0 ? (quality, index, language) : nil
            }
            self = ranked.sorted { ($0.0, -$0.1) > ($1.0, -$1.1) }.first?.2 ?? .en
        }
    }

    /// Where the app is once the phone trusts the CA: `https://NAME:PORT/`; `nil` when the server
    /// speaks plain HTTP only (`--tls off`), and the page says how to turn HTTPS on.
    let httpsAddress: String?
    /// The CA certificate's DER bytes; `nil` with the operator's own (publicly trusted) certificate.
    let authorityDER: [UInt8]?

    /// The CA's SHA-256 fingerprint as a person compares it (`AB:CD:…`), or `nil`.
    var fingerprint: String? {
        authorityDER.map { SHA256.hash(data: $0).map { String(format: "%02X", $0) }.joined(separator: ":") }
    }

    func response(for request: Request) -> Response {
        let language = Language(query: request.query[String.self, at: "lang"], acceptLanguage: request.headers.first(name: .acceptLanguage))
        let platform = Platform(userAgent: request.headers.first(name: .userAgent))
        var headers = HTTPHeaders()
        headers.contentType = .html
        headers.replaceOrAdd(name: "Content-Security-Policy", value: "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'")
        headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        headers.replaceOrAdd(name: "Cache-Control", value: "no-cache")
        headers.replaceOrAdd(name: "Vary", value: "Accept-Language, User-Agent")
        return Response(status: .ok, headers: headers, body: .init(string: html(language: language, platform: platform)))
    }

    /// The page in `language`, `platform`'s steps first and open, the others folded.
    func html(language: Language, platform: Platform) -> String {
        let words = Words.of(language)
        var sections: [String] = []
        if httpsAddress == nil {
            sections.append("<p class=\"warning\">\(words.noHTTPS)</p>")
        } else if authorityDER == nil {
            sections.append("<p>\(words.publicCertificate)</p>")
        } else {
            let order = [platform] + Platform.allCases.filter { $0 != platform }
            for shown in order {
                let steps = words.steps(for: shown).map { "<li>\($0)</li>" }.joined()
                sections.append("""
                    <details\(shown == platform ? " open" : "") data-platform="\(shown.rawValue)"><summary>\(words.platformName(shown))</summary><ol>\(steps)</ol></details>
                    """)
            }
            if let fingerprint {
                sections.append("<p class=\"fingerprint\">\(words.fingerprint) <code>\(fingerprint)</code></p>")
            }
        }
        let open = httpsAddress.map { "<p><a class=\"open\" href=\"\(Self.escaped($0))\">\(words.open)</a></p><p class=\"address\">\(Self.escaped($0))</p>" } ?? ""
        let other = Language.allCases.first { $0 != language } ?? .en
        return """
            <!doctype html>
            <html lang="\(language.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(words.title) · Waymark</title>
            <style>
            body { font: 1.0625rem/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 36rem; padding: 1rem 1.25rem 3rem; }
            h1 { font-size: 1.5rem; line-height: 1.25; }
            details { border: 1px solid #8aa39b; border-radius: .5rem; margin: .75rem 0; padding: .25rem .75rem; }
            summary { cursor: pointer; font-weight: 600; padding: .5rem 0; }
            li { margin: .5rem 0; }
            a { color: #0f5c4a; }
            @media (prefers-color-scheme: dark) { a { color: #7fd1b9; } }
            a.download, a.open { display: inline-block; padding: .625rem 1rem; border-radius: .5rem; background: #0f5c4a; color: #fff; text-decoration: none; font-weight: 600; }
            .warning { border-left: .25rem solid #b3261e; padding-left: .75rem; }
            .fingerprint code, .address { font-size: .8125rem; overflow-wrap: anywhere; }
            nav { text-align: right; }
            </style>
            </head>
            <body>
            <nav><a href="/pair?lang=\(other.rawValue)" lang="\(other.rawValue)" hreflang="\(other.rawValue)">\(Words.of(other).languageName)</a></nav>
            <h1>\(words.title)</h1>
            <p>\(words.why)</p>
            \(sections.joined(separator: "\n"))
            \(open)
            </body>
            </html>

            """
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The page's words in one language.
    struct Words {
        let languageName, title, why, fingerprint, open, noHTTPS, publicCertificate: String
        let names: [Platform: String]
        let stepsByPlatform: [Platform: [String]]

        func platformName(_ platform: Platform) -> String { names[platform] ?? platform.rawValue }
        func steps(for platform: Platform) -> [String] { stepsByPlatform[platform] ?? [] }

        static func of(_ language: Language) -> Words {
            switch language {
            case .en: english
            case .de: german
            }
        }

        static let english = Words(
            languageName: "English",
            title: "Open Waymark on this phone",
            why: "Waymark runs on a computer of your own, so this phone does not know its certificate yet. Until it does, the browser withholds the position, the camera and encryption from Waymark. Install and trust Waymark’s certificate once; then open Waymark.",
            fingerprint: "The certificate’s SHA-256 fingerprint, which your phone shows before you trust it:",
            open: "Open Waymark",
            noHTTPS: "This Waymark server speaks plain HTTP only, so a phone’s browser withholds the position, the camera and encryption from it. Whoever runs it can start it with HTTPS: <code>waymark serve --host 0.0.0.0</code> (HTTPS is then on by default) and scan the code it prints.",
            publicCertificate: "This Waymark server has a certificate your phone already trusts. Open it:",
            names: [.iOS: "iPhone and iPad", .android: "Android", .computer: "Computer"],
            stepsByPlatform: [
                .iOS: [
                    "In Safari, <a class=\"download\" href=\"/ca.mobileconfig\">download Waymark’s profile</a> and allow the download.",
                    "Open <b>Settings</b>, tap <b>Profile Downloaded</b> and then <b>Install</b> (your passcode is asked).",
                    "In <b>Settings → General → About → Certificate Trust Settings</b>, turn on full trust for the Waymark certificate.",
                    "Come back here and open Waymark.",
                ],
                .android: [
                    "<a class=\"download\" href=\"/ca.crt\">Download Waymark’s certificate</a>.",
                    "Open <b>Settings → Security and privacy → More security settings → Encryption and credentials → Install a certificate → CA certificate</b> (names vary a little between phones; the settings’ search finds “CA certificate”), tap <b>Install anyway</b> and choose <b>waymark-ca.crt</b> from Downloads.",
                    "Come back here and open Waymark.",
                ],
                .computer: [
                    "<a class=\"download\" href=\"/ca.crt\">Download Waymark’s certificate</a>.",
                    "macOS: open it in Keychain Access and set <b>Always Trust</b>. Windows: open it and install it into <b>Trusted Root Certification Authorities</b>. Linux: import it as an authority in the browser’s certificate settings (Chromium and Firefox: <b>Settings → Privacy and security → Certificates</b>).",
                    "Open Waymark.",
                ],
            ])

        static let german = Words(
            languageName: "Deutsch",
            title: "Waymark auf diesem Handy öffnen",
            why: "Waymark läuft auf einem eigenen Computer, deshalb kennt dein Handy sein Zertifikat noch nicht. Bis dahin gibt der Browser Waymark weder den Standort noch die Kamera noch die Verschlüsselung. Installiere Waymarks Zertifikat einmal und vertraue ihm; dann öffne Waymark.",
            fingerprint: "Der SHA-256-Fingerabdruck des Zertifikats, den dein Handy zeigt, bevor du ihm vertraust:",
            open: "Waymark öffnen",
            noHTTPS: "Dieser Waymark-Server spricht nur unverschlüsseltes HTTP, deshalb gibt der Browser eines Handys ihm weder den Standort noch die Kamera noch die Verschlüsselung. Wer ihn betreibt, kann ihn mit HTTPS starten: <code>waymark serve --host 0.0.0.0</code> (HTTPS ist dann von selbst an) und den Code scannen, den er zeigt.",
            publicCertificate: "Dieser Waymark-Server hat ein Zertifikat, dem dein Handy schon vertraut. Öffne ihn:",
            names: [.iOS: "iPhone und iPad", .android: "Android", .computer: "Computer"],
            stepsByPlatform: [
                .iOS: [
                    "Lade in Safari <a class=\"download\" href=\"/ca.mobileconfig\">Waymarks Profil</a> und erlaube das Laden.",
                    "Öffne <b>Einstellungen</b>, tippe auf <b>Profil geladen</b> und dann auf <b>Installieren</b> (dein Code wird abgefragt).",
                    "Schalte unter <b>Einstellungen → Allgemein → Info → Zertifikatsvertrauenseinstellungen</b> das volle Vertrauen für das Waymark-Zertifikat ein.",
                    "Komm hierher zurück und öffne Waymark.",
                ],
                .android: [
                    "<a class=\"download\" href=\"/ca.crt\">Lade Waymarks Zertifikat</a>.",
                    "Öffne <b>Einstellungen → Sicherheit und Datenschutz → Weitere Sicherheitseinstellungen → Verschlüsselung und Anmeldedaten → Zertifikat installieren → CA-Zertifikat</b> (die Namen weichen je nach Handy etwas ab; die Suche der Einstellungen findet „CA-Zertifikat“), tippe auf <b>Trotzdem installieren</b> und wähle <b>waymark-ca.crt</b> aus den Downloads.",
                    "Komm hierher zurück und öffne Waymark.",
                ],
                .computer: [
                    "<a class=\"download\" href=\"/ca.crt\">Lade Waymarks Zertifikat</a>.",
                    "macOS: öffne es in der Schlüsselbundverwaltung und wähle <b>Immer vertrauen</b>. Windows: öffne es und installiere es unter <b>Vertrauenswürdige Stammzertifizierungsstellen</b>. Linux: importiere es als Zertifizierungsstelle in den Zertifikatseinstellungen des Browsers (Chromium und Firefox: <b>Einstellungen → Datenschutz und Sicherheit → Zertifikate</b>).",
                    "Öffne Waymark.",
                ],
            ])
    }
}
