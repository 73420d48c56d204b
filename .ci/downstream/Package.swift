// swift-tools-version: 6.1
import PackageDescription

// A user's package, as our users depend on us: by path, importing QueueTesting in its tests.
// `.ci/downstream.sh` runs its tests and checks what a user sees (see the README there).
let package = Package(
  name: "Downstream",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "swift-queue-harness", path: "../..")],
  targets: [
    .testTarget(
      name: "DownstreamTests",
      dependencies: [.product(name: "QueueTesting", package: "swift-queue-harness")],
      swiftSettings: [.swiftLanguageMode(.v6)]
    )
  ]
)
