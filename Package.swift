// swift-tools-version: 6.1
import PackageDescription

/// Upcoming language features every GeoFare target opts into (as Hummingbird does).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "GeoFare",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "GeoFare", targets: ["GeoFareCore", "GeoFareText", "GeoFareProj", "GeoFareData", "GeoFareFile", "GeoFareOSM", "GeoFareGraph", "GeoFareGraphBuild", "GeoFareRoute", "GeoFareFare", "GeoFareParties", "GeoFareSQLite", "GeoFarePooling", "GeoFareWorker", "GeoFareBatch", "GeoFarePlaces", "GeoFareCalibration"]),
        // The fare meter alone (tariffs, routes, pricing): no SQLite, no PROJ, no SwiftNIO.
        .library(name: "GeoFareFare", targets: ["GeoFareFare"]),
        // The PostgreSQL party store (SwiftNIO, PostgresNIO): only for packages that need it.
        .library(name: "GeoFarePostgres", targets: ["GeoFarePostgres"]),
        .executable(name: "geofare", targets: ["geofare"]),
    ],
    // `swift build --traits PostgreSQL` builds the `geofare` command with the PostgreSQL store
    // (`--store postgres://...`); by default `geofare` (`swift run geofare`) leaves out PostgresNIO
    // (it has SwiftNIO through Hummingbird, for `geofare serve`), and a consumer of the library
    // products leaves out both (a plain `swift build` of every target still compiles the
    // GeoFarePostgres library).
    traits: [
        .trait(name: "PostgreSQL", description: "The PostgreSQL party store in the geofare command and its tests (SwiftNIO, PostgresNIO)."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // TLS to PostgreSQL (sslmode=...): the same swift-nio-ssl that postgres-nio builds on.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // `geofare serve`: the HTTP server (Hummingbird, on the SwiftNIO the PostgreSQL store
        // already brings), its metrics, graceful stop and logs. Only the command links them.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // PROJ, the system library (`libproj-dev`): `proj.h` and Karney's `geodesic.h`.
        .systemLibrary(
            name: "CProj",
            pkgConfig: "proj",
            providers: [.apt(["libproj-dev"])]
        ),
        // zlib, the system library (`zlib1g-dev`): inflates the zlib_data blobs of OSM PBF files.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // The files of Data/, embedded into the binary at compile time with C23 `#embed`
        // (standard C23, see `cLanguageStandard` below: no unsafe flag, so GeoFare can be a
        // dependency) so that the `geofare` binary finds its data however and wherever it is run.
        .target(name: "CGeoFareData"),
        .target(name: "GeoFareCore", swiftSettings: swiftSettings),
        // Text in and out: CSV and JSON readers and writers, numbers and bytes (no geometry, no money rules).
        .target(name: "GeoFareText", dependencies: ["GeoFareCore"], swiftSettings: swiftSettings),
        .target(name: "GeoFareData", dependencies: ["CGeoFareData", "GeoFareCore"], swiftSettings: swiftSettings),
        .target(
            name: "GeoFareProj",
            dependencies: ["CProj", "GeoFareCore", "GeoFareData"],
            swiftSettings: swiftSettings
        ),
        // Reading OpenStreetMap (PBF, road profiles) and the section-file container that graph files
        // and places indexes share, with its writer.
        // The section-file container of graph and places files (and its CRC-32, in Swift): read
        // without the PBF reader or zlib.
        .target(name: "GeoFareFile", dependencies: ["GeoFareCore"], swiftSettings: swiftSettings),
        .target(name: "GeoFareOSM", dependencies: ["CZlib", "GeoFareCore", "GeoFareText", "GeoFareData"], swiftSettings: swiftSettings),
        // Road graphs as routing reads them: the network, hierarchies, the mapped graph file, queries.
        // No builder: the fare meter (GeoFareFare) and a routing service compile none.
        .target(name: "GeoFareGraph", dependencies: ["GeoFareCore", "GeoFareFile"], swiftSettings: swiftSettings),
        // Building road graphs: the OSM import, contraction, and the graph file's writer.
        .target(name: "GeoFareGraphBuild", dependencies: ["GeoFareCore", "GeoFareFile", "GeoFareOSM", "GeoFareGraph"], swiftSettings: swiftSettings),
        // Named places from OSM: the places index file, Korean-aware search, reverse look-up.
        .target(name: "GeoFarePlaces", dependencies: ["GeoFareCore", "GeoFareText", "GeoFareData", "GeoFareFile", "GeoFareOSM"], swiftSettings: swiftSettings),
        .target(name: "GeoFareRoute", dependencies: ["GeoFareCore", "GeoFareText", "GeoFareData", "GeoFareGraph"], swiftSettings: swiftSettings),
        .target(name: "GeoFareFare", dependencies: ["GeoFareCore", "GeoFareText", "GeoFareData", "GeoFareRoute"], swiftSettings: swiftSettings),
        .target(name: "GeoFareCalibration", dependencies: ["GeoFareCore", "GeoFareText", "GeoFareRoute", "GeoFareFare"], swiftSettings: swiftSettings),
        .target(name: "GeoFareBatch", dependencies: ["GeoFareCore", "GeoFareText", "GeoFareFare"], swiftSettings: swiftSettings),
        // Parties: the party, its filters, the store protocol and its change feed, the spatial
        // index with its clusters, and the index kept coherent with a store.
        .target(name: "GeoFareParties", dependencies: ["GeoFareCore", "GeoFareText"], swiftSettings: swiftSettings),
        // Who rides together: the one feasibility rule of a shared ride, pooling a city's
        // requests (shareability network, maximum matching) and matching a rider to open parties.
        .target(name: "GeoFarePooling", dependencies: ["GeoFareCore", "GeoFareText", "GeoFareRoute", "GeoFareFare", "GeoFareParties"], swiftSettings: swiftSettings),
        // The SQLite party store (GRDB), one adapter of GeoFareParties' PartyStore.
        .target(
            name: "GeoFareSQLite",
            dependencies: ["GeoFareCore", "GeoFareParties", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        // The PostgreSQL party store, the other adapter: SwiftNIO and PostgresNIO, no SQLite.
        .target(
            name: "GeoFarePostgres",
            dependencies: [
                "GeoFareCore", "GeoFareParties",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GeoFareWorker",
            dependencies: ["GeoFareCore", "GeoFareText", "GeoFareProj", "GeoFareGraph", "GeoFareRoute", "GeoFareFare", "GeoFareParties", "GeoFarePooling", "GeoFarePlaces"],
            swiftSettings: swiftSettings
        ),
        // `geofare serve`: the worker's protocol over HTTP (Hummingbird), metrics (swift-prometheus),
        // graceful stop (swift-service-lifecycle), the roads of the graphs and the map page. Not
        // in a library product: a library consumer and the fare meter compile no HTTP server.
        .target(
            name: "GeoFareServer",
            dependencies: [
                "GeoFareCore", "GeoFareText", "GeoFareGraph", "GeoFareFare", "GeoFareParties", "GeoFarePooling", "GeoFareWorker",
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"), .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // What the `geofare` commands share: exit codes, standard error, the buffered output, JSON lines.
        .target(
            name: "GeoFareCLI",
            dependencies: ["GeoFareCore", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),
        // Every benchmark behind `geofare bench` and its one statistics helper; beside the
        // product, not in it (as Hummingbird keeps its benchmarks).
        .target(
            name: "GeoFareBench",
            dependencies: [
                "GeoFareCore", "GeoFareText", "GeoFareProj", "GeoFareGraph", "GeoFareRoute", "GeoFareFare", "GeoFareParties", "GeoFarePooling", "GeoFareSQLite", "GeoFareBatch", "GeoFareCLI", "GeoFarePlaces",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "geofare",
            dependencies: [
                "GeoFareCore", "GeoFareText", "GeoFareProj", "GeoFareData", "GeoFareOSM", "GeoFareGraph", "GeoFareGraphBuild", "GeoFareFare", "GeoFareRoute", "GeoFareParties", "GeoFarePooling", "GeoFareSQLite", "GeoFareWorker", "GeoFareBatch", "GeoFareCLI", "GeoFareBench", "GeoFarePlaces", "GeoFareCalibration", "GeoFareServer",
                .target(name: "GeoFarePostgres", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // Helpers every test target may share: the built binary and a worker subprocess.
        .target(name: "GeoFareTestSupport", dependencies: ["GeoFareCore", "GeoFareText"], path: "Tests/GeoFareTestSupport", swiftSettings: swiftSettings),
        .testTarget(name: "GeoFareCoreTests", dependencies: ["GeoFareCore"], swiftSettings: swiftSettings),
        .testTarget(name: "GeoFareTextTests", dependencies: ["GeoFareText", "GeoFareCore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "GeoFareProjTests",
            dependencies: ["GeoFareProj", "GeoFareCore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "GeoFareRouteTests", dependencies: ["GeoFareRoute", "GeoFareOSM", "GeoFareGraph", "GeoFareGraphBuild", "GeoFareCore", "GeoFareProj", "GeoFareTestSupport"],
                    resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        .testTarget(
            name: "GeoFareWorkerTests",
            dependencies: ["GeoFareWorker", "GeoFareFare", "GeoFareParties", "GeoFareCore", "GeoFareText", "GeoFareTestSupport", "geofare"],
            swiftSettings: swiftSettings
        ),
        // Fixtures/: the hit-rate query set, read by path (#filePath), not bundled.
        .testTarget(name: "GeoFarePlacesTests", dependencies: ["GeoFarePlaces", "GeoFareOSM", "GeoFareCore", "GeoFareText", "GeoFareTestSupport", "geofare"],
                    exclude: ["Fixtures"], swiftSettings: swiftSettings),
        .testTarget(name: "GeoFareDataTests", dependencies: ["GeoFareData", "GeoFareCore"], swiftSettings: swiftSettings),
        .testTarget(name: "GeoFareBatchTests", dependencies: ["GeoFareBatch", "GeoFareCore", "GeoFareFare", "GeoFareText"], swiftSettings: swiftSettings),
        .testTarget(
            name: "GeoFareSQLiteTests",
            dependencies: ["GeoFareSQLite", "GeoFareParties", "GeoFareCore", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        // The three graph modules' tests in one target: the query tests contract their networks with the builder.
        .testTarget(name: "GeoFareGraphTests", dependencies: ["GeoFareOSM", "GeoFareGraph", "GeoFareGraphBuild", "GeoFareCore", "GeoFareProj", "GeoFareTestSupport"],
                    resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        // The PostgreSQL store and workers on it, against a real server each test starts.
        .testTarget(
            name: "GeoFarePostgresTests",
            dependencies: ["GeoFareSQLite", "GeoFareParties", "GeoFareCore", "GeoFareText", "GeoFareTestSupport", "geofare",
                           .target(name: "GeoFarePostgres", condition: .when(traits: ["PostgreSQL"])),
                           // For the failure tests that drive a connection directly.
                           .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"]))],
            swiftSettings: swiftSettings
        ),
        // The statistics helper, and every benchmark run with --rounds through the built binary.
        .testTarget(name: "GeoFareBenchTests", dependencies: ["GeoFareBench", "GeoFareTestSupport", "geofare"], swiftSettings: swiftSettings),
        .testTarget(name: "GeoFarePartiesTests", dependencies: ["GeoFareParties", "GeoFareSQLite", "GeoFareCore"], swiftSettings: swiftSettings),
        .testTarget(name: "GeoFarePoolingTests", dependencies: ["GeoFarePooling", "GeoFareFare", "GeoFareRoute", "GeoFareParties", "GeoFareCore"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "GeoFareFareTests", dependencies: ["GeoFareFare", "GeoFareCore", "GeoFareRoute", "GeoFareTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "GeoFareCLITests",
            dependencies: ["geofare", "GeoFareFare", "GeoFareRoute", "GeoFareGraph", "GeoFareParties", "GeoFareCore", "GeoFareText", "GeoFareTestSupport"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
    ],
    cLanguageStandard: .c2x
)
