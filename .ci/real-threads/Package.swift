// swift-tools-version: 6.1
import PackageDescription

// The hop table of QueueTesting's "Hops out of a serial executor keep their order", run on real
// threads: the very file the harness's tests compile (Tests/QueueWorkloads/HopOrderTable.swift,
// linked into Sources/hop-order). `.ci/real-threads.sh` builds it in debug and release and checks
// that the cells the harness keeps in order never reorder here either. Depends on the root
// package by path for `MainActor.queue`. `Sources/queue-guarantees` checks what `ConcurrentQueue`
// and `AsyncSemaphore` promise (the width, barriers, a permit neither lost nor doubled when a
// cancellation races a signal) on real threads, in both configurations.
let package = Package(
  name: "RealThreads",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "swift-queue-harness", path: "../..")],
  targets: [
    .executableTarget(
      name: "hop-order",
      dependencies: [.product(name: "AsyncQueue", package: "swift-queue-harness")],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .executableTarget(
      name: "queue-guarantees",
      dependencies: [.product(name: "AsyncQueue", package: "swift-queue-harness")],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
  ]
)
