// swift-tools-version: 6.0
// The libFuzzer harness of `make fuzz` (scripts/fuzz), a package of its own so that building it
// with `-sanitize=fuzzer` never touches the main package's `.build`.
// Sources/WaymarkCore is a symlink to the real WaymarkCore sources: the harness fuzzes the
// code that ships, compiled with coverage instrumentation, and needs only swift-crypto.
import PackageDescription

let package = Package(
    name: "WaymarkFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
    ],
    targets: [
        .target(
            name: "WaymarkCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "waymark-fuzz",
            dependencies: ["WaymarkCore", .product(name: "Crypto", package: "swift-crypto")]
        ),
    ]
)
