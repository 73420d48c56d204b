// swift-tools-version: 6.1
import PackageDescription

// Zero package dependencies by design: the library, the test harness and the fuzzer
// build with the toolchain alone. Benchmarks live in their own package under Benchmarks/.
let package = Package(
  name: "swift-queue-harness",
  // The floor is where `Synchronization` exists on Apple platforms.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "AsyncQueue", targets: ["AsyncQueue"]),
    // Separate from AsyncQueue so that AsyncQueue does not link Foundation.
    .library(name: "AsyncOperations", targets: ["AsyncOperations"]),
    .library(name: "QueueTesting", targets: ["QueueTesting"]),
    .executable(name: "queue-fuzz", targets: ["queue-fuzz"]),
  ],
  targets: [
    .target(name: "AsyncQueue"),
    .target(name: "AsyncOperations"),
    // Modules by who uses them. The engine (executor, strategies, traces, oracles, deadlock
    // reports, the series runner) imports neither Testing nor XCTest, so queue-fuzz links
    // neither. QueueTesting adds the Swift Testing trait, expectations and the XCTest entry point,
    // and re-exports the engine. The scenario language, the shrinker and the deliberately broken
    // queues are queue-fuzz's alone: QueueTesting does not depend on them.
    // One runtime read in C (`swiftcall`): which serial executor the calling thread runs on.
    .target(name: "CQueueTestingRuntime"),
    .target(name: "QueueTestingEngine", dependencies: ["AsyncQueue", "CQueueTestingRuntime"]),
    .target(name: "QueueTesting", dependencies: ["QueueTestingEngine", "AsyncQueue"]),
    .target(name: "QueueScenarios", dependencies: ["QueueTestingEngine", "AsyncQueue"]),
    .target(name: "QueueFuzzCore", dependencies: ["QueueScenarios", "QueueTestingEngine", "AsyncQueue"]),
    .executableTarget(name: "queue-fuzz", dependencies: ["QueueFuzzCore"]),
    .testTarget(name: "AsyncQueueTests", dependencies: ["AsyncQueue", "QueueWorkloads", "QueueTestingEngine"]),
    .testTarget(
      name: "AsyncOperationsTests",
      dependencies: ["AsyncOperations", "AsyncQueue", "QueueWorkloads", "QueueTestingEngine"]),
    // Programs whose result depends on ordering, and the tests' shared support (logs, the hang
    // guard), for every test target.
    .target(name: "QueueWorkloads", dependencies: ["AsyncQueue"], path: "Tests/QueueWorkloads"),
    .testTarget(name: "QueueTestingEngineTests", dependencies: ["QueueTestingEngine", "QueueWorkloads", "AsyncQueue"]),
    .testTarget(
      name: "QueueTestingTests", dependencies: ["QueueTesting", "QueueTestingEngine", "QueueWorkloads", "AsyncQueue"]),
    .testTarget(name: "QueueScenariosTests", dependencies: ["QueueScenarios", "QueueTestingEngine", "QueueWorkloads"]),
    .testTarget(
      name: "QueueFuzzTests",
      dependencies: ["QueueFuzzCore", "QueueScenarios", "QueueTestingEngine", "AsyncQueue", "QueueWorkloads"]),
  ],
  swiftLanguageModes: [.v6]
)

// The one place that spells out what the controlled executor needs on Apple platforms: the Swift
// 6.3 runtime's executor-factory hooks, which ship with the 26.4 releases. Sources say
// `@available(ExecutorHooks 1.0, *)` and `#available(ExecutorHooks 1.0, *)`.
let executorHooks = "AvailabilityMacro=ExecutorHooks 1.0:macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4"
for target in package.targets where target.name != "CQueueTestingRuntime" {
  target.swiftSettings = (target.swiftSettings ?? []) + [.enableExperimentalFeature(executorHooks)]
}
