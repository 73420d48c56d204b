@_spi(Diagnostics) import AsyncQueue

/// A scenario's semaphore: `AsyncSemaphore`, as shipped, or broken so that a waiter cancelled
/// while it waits keeps the permit a signal then hands it (the `cancelled-waiter-keeps-permit`
/// mutant: it waits without cancellation and only then looks at it, so the permit it was handed
/// is gone with it).
struct ScenarioSemaphoreRuntime: Sendable {
  let semaphore: AsyncSemaphore
  /// The mutant's flaw.
  var cancelledWaiterKeepsPermit = false

  /// `wait()`.
  func acquire() async {
    await semaphore.wait()
  }

  /// `waitUnlessCancelled()`.
  func acquireUnlessCancelled() async throws {
    guard cancelledWaiterKeepsPermit else {
      try await semaphore.waitUnlessCancelled()
      return
    }
    if Task.isCancelled { throw CancellationError() }
    await semaphore.wait()
    if Task.isCancelled { throw CancellationError() }
  }

  /// `signal()`.
  func release() {
    semaphore.signal()
  }

  /// The permits no one holds.
  var freePermits: Int { semaphore.permitCounts.free }
}
