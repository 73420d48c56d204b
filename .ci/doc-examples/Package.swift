// swift-tools-version: 6.1
import PackageDescription

// Every Swift example of the README and of the DocC catalogs, compiled and run as a user's package
// would: depending on this one by path, through its products only. `.ci/docs.sh` checks that
// each example appears here verbatim and that the suite fails exactly where the README says.
// Not run through swift-format: the examples keep the layout the documentation shows.
let package = Package(
  name: "DocExamples",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [.package(name: "swift-queue-harness", path: "../..")],
  targets: [
    .target(name: "App", dependencies: [.product(name: "AsyncQueue", package: "swift-queue-harness")]),
    .testTarget(
      name: "AppTests",
      dependencies: [
        "App",
        .product(name: "AsyncQueue", package: "swift-queue-harness"),
        .product(name: "AsyncOperations", package: "swift-queue-harness"),
        .product(name: "QueueTesting", package: "swift-queue-harness"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
  ]
)
