// swift-tools-version: 6.1
// The fuzz targets: a package of its own beside GeoFare, depending on it by path, so the main
// package's `swift build` and tests never see libFuzzer. Built by `.ci/fuzz` with
// `-sanitize=fuzzer,address` (see docs/testing.md).
import PackageDescription

let package = Package(
    name: "GeoFareFuzz",
    dependencies: [
        .package(name: "GeoFare", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "geofare-fuzz",
            dependencies: [.product(name: "GeoFare", package: "GeoFare")]
        ),
    ]
)
