// swift-tools-version: 6.1
import PackageDescription

import class Foundation.ProcessInfo

// The malloc interposer (needed for the malloc-count metric) adds work to every allocation, and an
// actor-queue item allocates its task. BENCHMARK_WITHOUT_MALLOC_INTERPOSER=1 builds without it,
// to measure time and peak RSS without that overhead (see the README's table).
let mallocInterposer = ProcessInfo.processInfo.environment["BENCHMARK_WITHOUT_MALLOC_INTERPOSER"] == nil

// A separate package so that the library itself keeps zero dependencies.
// Run from this folder: swift package --disable-sandbox benchmark
let package = Package(
  name: "Benchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "swift-queue-harness", path: ".."),
    .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: mallocInterposer ? ["MallocInterposer"] : []),
  ],
  targets: [
    .executableTarget(
      name: "QueueBenchmarks",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "AsyncQueue", package: "swift-queue-harness"),
        "HeapStatistics",
      ],
      path: "Benchmarks/QueueBenchmarks",
      swiftSettings: [.swiftLanguageMode(.v6)],
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    // The allocator's bytes in use, for the heap-per-live-task metric (the C headers that declare
    // it are not part of Swift's Glibc module).
    .target(name: "HeapStatistics", path: "Benchmarks/HeapStatistics"),
    // A process of its own: the controlled executor, once installed, sees every job of the
    // process, which would tax the queue benchmarks above.
    .executableTarget(
      name: "HarnessBenchmarks",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "QueueTesting", package: "swift-queue-harness"),
      ],
      path: "Benchmarks/HarnessBenchmarks",
      swiftSettings: [.swiftLanguageMode(.v6)],
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
  ]
)
