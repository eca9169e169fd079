// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Waymark",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "waymark", targets: ["waymark"]),
        .library(name: "WaymarkCore", targets: ["WaymarkCore"]),
        .library(name: "WaymarkMedia", targets: ["WaymarkMedia"]),
        .library(name: "WaymarkAPI", targets: ["WaymarkAPI"]),
        .library(name: "WaymarkClient", targets: ["WaymarkClient"]),
        .library(name: "WaymarkServer", targets: ["WaymarkServer"]),
        .library(name: "WaymarkRecorder", targets: ["WaymarkRecorder"]),
        .library(name: "WaymarkVault", targets: ["WaymarkVault"]),
        .library(name: "WaymarkS3", targets: ["WaymarkS3"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.20.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.65.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.27.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.1.0"),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.100.0"),
        .package(url: "https://github.com/vapor/fluent.git", from: "4.9.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.6.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.8.0"),
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.0.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.0.0"),
    ],
    targets: [
        // Pure Swift, portable to Apple platforms: no C shim, no Linux-only API.
        .target(
            name: "WaymarkCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),

        // System libraries, found through pkg-config; scripts/bootstrap installs them.
        .systemLibrary(
            name: "CExiv2", pkgConfig: "exiv2",
            providers: [.apt(["libexiv2-dev"]), .brew(["exiv2"])]
        ),
        .systemLibrary(
            name: "CZXing", pkgConfig: "zxing",
            providers: [.apt(["libzxing-dev"]), .brew(["zxing-cpp"])]
        ),
        .systemLibrary(
            name: "CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]
        ),
        .systemLibrary(
            name: "CQREncode", pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]
        ),
        // HEIF/HEIC decoding (HEVC through libde265), for the QR search in HEIC photos.
        .systemLibrary(
            name: "CHeif", pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"]), .brew(["libheif"])]
        ),
        // Password hashing (Argon2id) for accounts; the vault's sealed boxes later.
        .systemLibrary(
            name: "CSodium", pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
        ),
        // Image derivatives (shrink-on-load thumbnails, JPEG/WebP, metadata stripped) and the content check of uploads.
        .systemLibrary(
            name: "CVips", pkgConfig: "vips",
            providers: [.apt(["libvips-dev"]), .brew(["vips"])]
        ),
        // The PDF of a photo (DESIGN §3.10): cairo's PDF surface, written to memory.
        .systemLibrary(
            name: "CCairo", pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"]), .brew(["cairo"])]
        ),
        // The one C++ shim: a plain C API over exiv2, zxing-cpp, libjpeg-turbo, libqrencode, libheif, libsodium, libvips and cairo.
        .target(
            name: "CWaymarkMedia",
            dependencies: ["CExiv2", "CZXing", "CTurboJPEG", "CQREncode", "CHeif", "CSodium", "CVips", "CCairo"]
        ),
        // Photos on disk: metadata, QR search, safe writing, the tagging pipeline.
        .target(
            name: "WaymarkMedia",
            dependencies: [
                "WaymarkCore", "CWaymarkMedia",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The wire contract shared by server and client: DTOs, request signing, error bodies.
        .target(
            name: "WaymarkAPI",
            dependencies: ["WaymarkCore", .product(name: "Crypto", package: "swift-crypto"), .product(name: "Yams", package: "Yams")],
            // The API's contract: one OpenAPI 3.1 file per area and a common one (APIContract merges them).
            resources: [.copy("Contract")]
        ),
        // The typed client of the route API, on AsyncHTTPClient.
        .target(
            name: "WaymarkClient",
            dependencies: [
                "WaymarkAPI", "WaymarkCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The platform's server: Vapor, Fluent on SQLite (default) or PostgreSQL (DATABASE_URL); the web app in Web/.
        .target(
            name: "WaymarkServer",
            dependencies: [
                "WaymarkAPI", "WaymarkCore", "WaymarkMedia",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                // Outbound requests (the optional street-address geocoder); Vapor already depends on it.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // HTTPS of its own (DESIGN §3.12): Waymark's certificate authority and server
                // certificates (swift-certificates), served by Vapor through SwiftNIO SSL.
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The recorder's devices and storage: location sources (gpsd, NMEA, GPX replay), the local
        // SQLite store (GRDB, which also runs on Apple platforms) and the upload queue.
        .target(
            name: "WaymarkRecorder",
            dependencies: [
                "WaymarkCore", "WaymarkAPI", "WaymarkClient",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The OwnYourData vault client: records, libsodium's sealed boxes (through the shim), the local cache (GRDB) and the push.
        .target(
            name: "WaymarkVault",
            dependencies: [
                "WaymarkCore", "CWaymarkMedia",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // S3-compatible object storage: AWS Signature Version 4 on swift-crypto (Soto is not reachable).
        .target(
            name: "WaymarkS3",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The command-line tool: argument parsing and printing only.
        .executableTarget(
            name: "waymark",
            dependencies: [
                "WaymarkCore", "WaymarkMedia", "WaymarkAPI", "WaymarkClient", "WaymarkServer", "WaymarkRecorder", "WaymarkVault",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The API load generator of make bench.
        .executableTarget(
            name: "waymark-load",
            dependencies: [
                "WaymarkAPI", "WaymarkCore", "WaymarkServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Shared by the test targets: fixtures, temporary folders, and the external tools that check our output.
        .target(name: "WaymarkTestSupport", path: "Tests/WaymarkTestSupport"),
        .testTarget(name: "WaymarkCoreTests", dependencies: ["WaymarkCore", "WaymarkTestSupport"], exclude: ["FuzzRegressions"]),
        .testTarget(name: "WaymarkAPITests", dependencies: ["WaymarkAPI", "WaymarkCore", .product(name: "Yams", package: "Yams")]),
        .testTarget(name: "WaymarkClientTests", dependencies: ["WaymarkClient", "WaymarkAPI", "WaymarkCore", "WaymarkTestSupport"]),
        .testTarget(name: "WaymarkMediaTests", dependencies: ["WaymarkMedia", "WaymarkCore", "WaymarkTestSupport"], exclude: ["FuzzRegressions"]),
        .testTarget(name: "WaymarkCLITests", dependencies: ["WaymarkCore", "WaymarkMedia", "WaymarkAPI", "WaymarkClient", "WaymarkRecorder", "WaymarkVault", "WaymarkTestSupport",
                                                          .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "WaymarkRecorderTests", dependencies: ["WaymarkRecorder", "WaymarkCore", "WaymarkAPI", "WaymarkClient", "WaymarkTestSupport",
                                                               .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "WaymarkS3Tests", dependencies: [
            "WaymarkS3", "WaymarkTestSupport", .product(name: "AsyncHTTPClient", package: "async-http-client"),
        ]),
        .testTarget(name: "WaymarkVaultTests", dependencies: ["WaymarkVault", "WaymarkCore", "WaymarkTestSupport"]),
        .testTarget(
            name: "WaymarkServerTests",
            dependencies: [
                "WaymarkServer", "WaymarkAPI", "WaymarkCore", "WaymarkMedia", "WaymarkTestSupport",
                .product(name: "VaporTesting", package: "vapor"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Yams", package: "Yams"),
            ],
            exclude: ["FuzzRegressions"]
        ),
    ],
    cxxLanguageStandard: .cxx17
)
