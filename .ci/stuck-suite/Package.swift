// swift-tools-version: 6.1
import PackageDescription

// A user's suite with one controlled test that can never finish, beside ordinary tests, in Swift
// Testing and in XCTest. `.ci/stuck-suite.sh` runs it and checks that every other test still
// reports, that the stuck test fails with its deadlock report, and that the run ends non-zero.
let package = Package(
  name: "StuckSuite",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "swift-queue-harness", path: "../..")],
  targets: [
    .testTarget(
      name: "StuckSuiteTests",
      dependencies: [.product(name: "QueueTesting", package: "swift-queue-harness")],
      swiftSettings: [.swiftLanguageMode(.v6)]
    )
  ]
)
