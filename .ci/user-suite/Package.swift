// swift-tools-version: 6.1
import PackageDescription

// A suite written as a new user writes one, with all of Swift Testing under the trait: output,
// arguments, `#require`, `Test.cancel`, known issues, `exit`, time limits, xUnit, clocks.
// `.ci/user-suite.sh` runs it and checks what `swift test` prints for each test.
let package = Package(
  name: "UserSuite",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "swift-queue-harness", path: "../..")],
  targets: [
    .testTarget(
      name: "UserSuiteTests",
      dependencies: [.product(name: "QueueTesting", package: "swift-queue-harness")],
      swiftSettings: [.swiftLanguageMode(.v6)]
    )
  ]
)
