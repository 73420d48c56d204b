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
    .library(name: "AsyncOperation", targets: ["AsyncOperation"]),
    .library(name: "QueueTesting", targets: ["QueueTesting"]),
    .executable(name: "queue-fuzz", targets: ["queue-fuzz"]),
  ],
  targets: [
    .target(name: "AsyncQueue"),
    .target(name: "AsyncOperation"),
    // The engine (executor, strategies, traces, oracles, deadlock reports, scenarios, shrinking)
    // imports neither Testing nor XCTest, so queue-fuzz links neither; QueueTesting adds the Swift
    // Testing trait, expectations and the XCTest entry point, and re-exports the engine.
    // One runtime read in C (`swiftcall`): which serial executor the calling thread runs on.
    .target(name: "CQueueTestingRuntime"),
    .target(name: "QueueTestingEngine", dependencies: ["AsyncQueue", "CQueueTestingRuntime"]),
    .target(name: "QueueTesting", dependencies: ["QueueTestingEngine", "AsyncQueue"]),
    .target(name: "QueueFuzzCore", dependencies: ["QueueTestingEngine"]),
    .executableTarget(name: "queue-fuzz", dependencies: ["QueueFuzzCore"]),
    .testTarget(name: "AsyncQueueTests", dependencies: ["AsyncQueue", "AsyncOperation"]),
    .testTarget(name: "QueueTestingTests", dependencies: ["QueueTesting", "QueueTestingEngine", "AsyncQueue"]),
    .testTarget(name: "QueueFuzzTests", dependencies: ["QueueFuzzCore", "QueueTestingEngine"]),
  ],
  swiftLanguageModes: [.v6]
)
