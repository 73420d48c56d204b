import AsyncQueue
import QueueTestingEngine
import Synchronization

/// Mutant for `--check-determinism`: a real `FIFOQueue` whose items are numbered by a counter
/// that lives as long as the process, and that yields once more before every odd-numbered item.
/// Ordering holds, but the second run of a schedule numbers its items differently from the
/// first, so the same schedule gives another trace: state kept between runs.
struct RunCountingFIFORuntime: ScenarioQueueRuntime {
  /// Outlives every run on purpose: that is the flaw.
  private static let itemsStarted = Atomic<Int>(0)

  let queue: FIFOQueue

  private func numbered(_ body: @escaping ScenarioItemBody) -> ScenarioItemBody {
    { isolation in
      let number = Self.itemsStarted.add(1, ordering: .relaxed).newValue
      TraceRecorder.mark("item #\(number) of this process")
      if number % 2 == 1 { await Task.yield() }
      try await body(isolation)
    }
  }

  func enqueue(priority: TaskPriority?, _ body: @escaping ScenarioItemBody) {
    RealFIFORuntime(queue: queue).enqueue(priority: priority, numbered(body))
  }

  nonisolated(nonsending) func enqueueAndWait(_ body: @escaping ScenarioItemBody) async throws {
    try await RealFIFORuntime(queue: queue).enqueueAndWait(numbered(body))
  }

  func task(priority: TaskPriority?, _ body: @escaping ScenarioItemBody) -> Task<Void, any Error> {
    RealFIFORuntime(queue: queue).task(priority: priority, numbered(body))
  }
}
