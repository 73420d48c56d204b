// swift-tools-version: 6.1
import PackageDescription

// Tests of well-known packages, ported as their authors wrote them, run under the default
// `.controlledScheduling()` trait by a user's package that depends on QueueTesting by path.
// `.ci/real-suites.sh` runs them; each passes on real threads, so each must pass here too.
let package = Package(
  name: "RealSuites",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "swift-queue-harness", path: "../.."),
    .package(url: "https://github.com/apple/swift-async-algorithms", exact: "1.1.4"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", exact: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", exact: "1.4.3"),
    .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
  ],
  targets: [
    .testTarget(
      name: "RealSuitesTests",
      dependencies: [
        .product(name: "QueueTesting", package: "swift-queue-harness"),
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)]
    )
  ]
)
