// swift-tools-version: 6.0
// The libFuzzer harness of `make fuzz` (scripts/fuzz), a package of its own so that building it
// with `-sanitize=fuzzer` never touches the main package's `.build`.
//
// Every reader target compiles the files that ship, through symlinks, with coverage
// instrumentation:
// - Sources/WaymarkCore is a symlink to the real WaymarkCore sources.
// - Sources/WaymarkMediaReaders/TIFF and …/BMFF are symlinks to Sources/WaymarkMedia/TIFF and
//   …/BMFF, the pure-Swift readers of TIFF/IFD, JPEG layout and ISO-BMFF (Foundation only, no
//   exiv2 or other C shim). Those files name two types defined beside them with the shim
//   (GPSTags, PhotoMetadata); StandIns.swift gives the harness same-shaped ones.
// - Sources/WaymarkServerReaders holds symlinks to the two self-contained server readers,
//   Support/MultipartFormReader.swift (MultipartKit on NIOCore, no Vapor) and
//   Support/CursorSeal.swift (swift-crypto).
import PackageDescription

let package = Package(
    name: "WaymarkFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.65.0"),
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.0"),
    ],
    targets: [
        .target(
            name: "WaymarkCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(name: "WaymarkMediaReaders"),
        .target(
            name: "WaymarkServerReaders",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "waymark-fuzz",
            dependencies: ["WaymarkCore", "WaymarkMediaReaders", "WaymarkServerReaders", .product(name: "Crypto", package: "swift-crypto")]
        ),
    ]
)
