import QueueWorkloads
import Testing

@testable import AsyncQueue

@Suite("AsyncSemaphore", .timeLimit(.minutes(5)), .hangGuard)
struct AsyncSemaphoreTests {
  /// Never more tasks hold a permit than the semaphore's value.
  @Test func limitsHowManyHoldAPermit() async {
    let semaphore = AsyncSemaphore(value: 3)
    let meter = OverlapMeter()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<50 {
        group.addTask {
          await semaphore.withPermit {
            meter.enter()
            await Task.yield()
            meter.leave()
          }
        }
      }
    }
    #expect(meter.maximum <= 3)
    #expect(semaphore.counts == (3, 0))
  }

  /// Signals wake waiters in the order they began to wait.
  @Test func signalsWakeWaitersInOrder() async {
    let semaphore = AsyncSemaphore(value: 0)
    let woken = EventLog<Int>()
    var waiters: [Task<Void, Never>] = []
    for index in 0..<10 {
      waiters.append(
        Task {
          await semaphore.wait()
          woken.append(index)
        })
      // The next waiter starts once this one is in line.
      #expect(await eventually { semaphore.counts.waiting == index + 1 })
    }
    for index in 0..<10 {
      semaphore.signal()
      #expect(await eventually { woken.snapshot.count == index + 1 })
    }
    for waiter in waiters { await waiter.value }
    #expect(woken.snapshot == Array(0..<10))
  }

  /// A task cancelled before it waits throws at once and takes no permit; `wait()` ignores the
  /// cancellation.
  @Test func aCancelledTaskTakesNoPermit() async throws {
    let semaphore = AsyncSemaphore(value: 1)
    let cancelled = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      do {
        try await semaphore.waitUnlessCancelled()
        return "acquired"
      } catch {
        return "threw"
      }
    }
    #expect(await cancelled.value == "threw")
    #expect(semaphore.counts == (1, 0))
    let ignoring = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      await semaphore.wait()
      return Task.isCancelled
    }
    #expect(await ignoring.value)
    #expect(semaphore.counts == (0, 0))
  }

  /// A waiter cancelled while it waits leaves the line with a `CancellationError` and no permit;
  /// the next signal goes to the waiter behind it.
  @Test func aWaiterCancelledWhileWaitingLeavesTheLine() async {
    let semaphore = AsyncSemaphore(value: 0)
    let first = Task { () -> String in
      do {
        try await semaphore.waitUnlessCancelled()
        return "acquired"
      } catch {
        return "\(type(of: error))"
      }
    }
    #expect(await eventually { semaphore.counts.waiting == 1 })
    let second = Task { () -> String in
      await semaphore.wait()
      return "acquired"
    }
    #expect(await eventually { semaphore.counts.waiting == 2 })
    first.cancel()
    #expect(await first.value == "CancellationError")
    #expect(semaphore.counts == (0, 1))
    #expect(semaphore.signal())
    #expect(await second.value == "acquired")
    #expect(semaphore.counts == (0, 0))
  }

  /// `withPermit` signals when its operation throws; `withPermitUnlessCancelled` does not run
  /// the operation in a cancelled task.
  @Test func withPermitAlwaysSignals() async {
    let semaphore = AsyncSemaphore(value: 1)
    await #expect(throws: TestError(id: 1)) {
      try await semaphore.withPermit { () throws(TestError) in throw TestError(id: 1) }
    }
    #expect(semaphore.counts == (1, 0))
    await #expect(throws: TestError(id: 2)) {
      try await semaphore.withPermitUnlessCancelled { throw TestError(id: 2) }
    }
    #expect(semaphore.counts == (1, 0))
    let ran = LockedState<Bool>.make(false)
    let cancelled = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await semaphore.withPermitUnlessCancelled { ran.withLock { $0 = true } }
    }
    await #expect(throws: CancellationError.self) { try await cancelled.value }
    #expect(!ran.withLock { $0 })
    #expect(semaphore.counts == (1, 0))
  }

  /// A cancellation and a signal racing for one waiter on real threads: the waiter holds the
  /// permit and none is free, or it threw and the permit is free, every time.
  @Test func aCancellationRacingASignalKeepsThePermitsOnRealThreads() async {
    var outcomes: [Bool: Int] = [:]
    for _ in 0..<2_000 {
      let semaphore = AsyncSemaphore(value: 0)
      let waiter = Task { () -> Bool in
        do {
          try await semaphore.waitUnlessCancelled()
          return true
        } catch {
          return false
        }
      }
      // The waiter is in line before the signal and the cancellation race for it.
      #expect(await eventually { semaphore.counts.waiting == 1 })
      async let signalled: Bool = semaphore.signal()
      async let cancelled: Void = waiter.cancel()
      _ = await (signalled, cancelled)
      let holds = await waiter.value
      outcomes[holds, default: 0] += 1
      #expect(semaphore.counts == (holds ? 0 : 1, 0), "holds: \(holds)")
    }
    #expect(outcomes.values.reduce(0, +) == 2_000)
  }

  /// A negative initial value is a precondition failure.
  @Test func aNegativeValueTraps() async {
    await #expect(processExitsWith: .failure) {
      _ = AsyncSemaphore(value: -1)
    }
  }
}
