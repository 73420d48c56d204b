// swift-tools-version: 6.1
import PackageDescription

// The whole test suite of the library our queues answer to (dfed/swift-async-queue 1.0, MIT
// License), ported against our AsyncQueue, which offers the same `Task(on:)` API. Its tests are
// kept as their author wrote them, without the trait: `.ci/whole-suites.sh` runs the suite plain,
// then puts `.controlledScheduling()` on every test by script, as a user would, and runs it again.
let package = Package(
  name: "AnchorSuite",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "swift-queue-harness", path: "../..")],
  targets: [
    .testTarget(
      name: "AsyncQueueTests",
      dependencies: [.product(name: "AsyncQueue", package: "swift-queue-harness")],
      swiftSettings: [.swiftLanguageMode(.v6)]
    )
  ]
)
