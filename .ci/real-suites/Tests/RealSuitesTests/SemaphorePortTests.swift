// Tests of groue/Semaphore (MIT License; Copyright (c) 2022 Gwendal Roué), from its
// AsyncSemaphoreTests, ported to Swift Testing and to AsyncQueue's AsyncSemaphore (the same
// names: `wait()`, `waitUnlessCancelled()`, `signal()`). The comparisons with `DispatchSemaphore`
// are left out, and the inverted expectations with a timeout are kept as what they check: a task
// still suspended after a sleep. Where the original slept so that a task would be waiting before
// a signal whose result it checks, the port waits until the semaphore has that waiter: on real
// threads a sleep decides nothing. Each body runs twice: on real threads, and under the default
// `.controlledScheduling()` trait, where the sleeps are virtual.
@_spi(Diagnostics) import AsyncQueue
import QueueTesting
import Synchronization
import Testing

/// Whether a task got past a point (the port's inverted expectations).
final class Flag: Sendable {
  private let value = Mutex(false)
  func set() { value.withLock { $0 = true } }
  var isSet: Bool { value.withLock { $0 } }
}

enum SemaphorePort {
  static func signalWithoutSuspendedTasks() {
    for value in 0...2 {
      #expect(!AsyncSemaphore(value: value).signal())
    }
  }

  static func signalReturnsWhetherItResumesASuspendedTask() async throws {
    let sem = AsyncSemaphore(value: 0)
    Task { await sem.wait() }
    // The original slept 500 ms for the task to be waiting.
    while sem.permitCounts.waiting == 0 { await Task.yield() }
    #expect(sem.signal())
    #expect(!sem.signal())
  }

  static func waitSuspendsOnZeroSemaphoreUntilSignal() async throws {
    let sem = AsyncSemaphore(value: 0)
    let woken = Flag()
    let task = Task {
      await sem.wait()
      woken.set()
    }
    try await Task.sleep(for: .milliseconds(500))
    #expect(!woken.isSet)
    sem.signal()
    await task.value
    #expect(woken.isSet)
  }

  static func cancellationWhileSuspendedThrowsCancellationError() async throws {
    let sem = AsyncSemaphore(value: 0)
    let task = Task { () -> String in
      do {
        try await sem.waitUnlessCancelled()
        return "no error"
      } catch {
        return "\(type(of: error))"
      }
    }
    try await Task.sleep(for: .milliseconds(100))
    task.cancel()
    #expect(await task.value == "CancellationError")
  }

  static func cancellationBeforeSuspensionThrowsCancellationError() async throws {
    let sem = AsyncSemaphore(value: 0)
    let task = Task { () -> String in
      // A delay that cancellation does not cut short.
      try? await Task { try await Task.sleep(for: .milliseconds(100)) }.value
      do {
        try await sem.waitUnlessCancelled()
        return "no error"
      } catch {
        return "\(type(of: error))"
      }
    }
    task.cancel()
    #expect(await task.value == "CancellationError")
  }

  static func cancellationWhileSuspendedIncrementsTheSemaphore() async throws {
    let sem = AsyncSemaphore(value: 0)
    let task = Task { try await sem.waitUnlessCancelled() }
    try await Task.sleep(for: .milliseconds(100))
    task.cancel()
    let woken = Flag()
    let taskTwo = Task {
      await sem.wait()
      woken.set()
    }
    try await Task.sleep(for: .milliseconds(500))
    #expect(!woken.isSet)
    sem.signal()
    await taskTwo.value
    #expect(woken.isSet)
  }

  static func cancellationBeforeSuspensionIncrementsTheSemaphoreTwo() async {
    let sem = AsyncSemaphore(value: 1)
    let task = Task {
      while !Task.isCancelled { await Task.yield() }
      try await sem.waitUnlessCancelled()
    }
    task.cancel()
    try? await task.value
    await sem.wait()
  }

  static func cancellationWhileSuspendedIncrementsTheSemaphoreTwo() async {
    let sem = AsyncSemaphore(value: 0)
    let running = Flag()
    let task = Task {
      running.set()
      try await sem.waitUnlessCancelled()
      while !Task.isCancelled { await Task.yield() }
    }
    while !running.isSet { await Task.yield() }
    task.cancel()
    try? await task.value
    sem.signal()
    await sem.wait()
  }

  /// An actor whose `run()` holds one of the semaphore's permits, counting the runs at once.
  actor Runner {
    private let semaphore: AsyncSemaphore
    private var count = 0
    private(set) var effectiveMaxConcurrentRuns = 0

    init(maxConcurrentRuns: Int) {
      semaphore = AsyncSemaphore(value: maxConcurrentRuns)
    }

    func run(cancellable: Bool) async throws {
      if cancellable { try await semaphore.waitUnlessCancelled() } else { await semaphore.wait() }
      defer { semaphore.signal() }
      count += 1
      effectiveMaxConcurrentRuns = max(effectiveMaxConcurrentRuns, count)
      try await Task.sleep(for: .milliseconds(100))
      count -= 1
    }
  }

  static func semaphoreAsAResourceLimiterOnActorMethod(cancellable: Bool) async {
    for maxConcurrentRuns in 1...10 {
      let runner = Runner(maxConcurrentRuns: maxConcurrentRuns)
      await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<20 {
          group.addTask { try await runner.run(cancellable: cancellable) }
        }
      }
      #expect(await runner.effectiveMaxConcurrentRuns == maxConcurrentRuns)
    }
  }

  /// The same limit on the main actor, the runs started with `async let` from one task.
  @MainActor
  final class MainRunner {
    private let semaphore: AsyncSemaphore
    private var count = 0
    private(set) var effectiveMaxConcurrentRuns = 0

    init(maxConcurrentRuns: Int) {
      semaphore = AsyncSemaphore(value: maxConcurrentRuns)
    }

    func run() async {
      await semaphore.wait()
      defer { semaphore.signal() }
      count += 1
      effectiveMaxConcurrentRuns = max(effectiveMaxConcurrentRuns, count)
      try? await Task.sleep(for: .milliseconds(100))
      count -= 1
    }
  }

  @MainActor
  static func semaphoreAsAResourceLimiterOnSingleThread() async {
    let runner = MainRunner(maxConcurrentRuns: 3)
    async let x0: Void = runner.run()
    async let x1: Void = runner.run()
    async let x2: Void = runner.run()
    async let x3: Void = runner.run()
    async let x4: Void = runner.run()
    async let x5: Void = runner.run()
    async let x6: Void = runner.run()
    async let x7: Void = runner.run()
    async let x8: Void = runner.run()
    async let x9: Void = runner.run()
    _ = await (x0, x1, x2, x3, x4, x5, x6, x7, x8, x9)
    #expect(runner.effectiveMaxConcurrentRuns == 3)
  }
}

@Suite struct SemaphorePortTests {
  @Test func testSignalWithoutSuspendedTasks() { SemaphorePort.signalWithoutSuspendedTasks() }
  @Test func test_signal_returns_whether_it_resumes_a_suspended_task_or_not() async throws {
    try await SemaphorePort.signalReturnsWhetherItResumesASuspendedTask()
  }
  @Test func test_wait_suspends_on_zero_semaphore_until_signal() async throws {
    try await SemaphorePort.waitSuspendsOnZeroSemaphoreUntilSignal()
  }
  @Test func test_cancellation_while_suspended_throws_CancellationError() async throws {
    try await SemaphorePort.cancellationWhileSuspendedThrowsCancellationError()
  }
  @Test func test_cancellation_before_suspension_throws_CancellationError() async throws {
    try await SemaphorePort.cancellationBeforeSuspensionThrowsCancellationError()
  }
  @Test func test_that_cancellation_while_suspended_increments_the_semaphore() async throws {
    try await SemaphorePort.cancellationWhileSuspendedIncrementsTheSemaphore()
  }
  @Test func test_that_cancellation_before_suspension_increments_the_semaphore_two() async {
    await SemaphorePort.cancellationBeforeSuspensionIncrementsTheSemaphoreTwo()
  }
  @Test func test_that_cancellation_while_suspended_increments_the_semaphore_two() async {
    await SemaphorePort.cancellationWhileSuspendedIncrementsTheSemaphoreTwo()
  }
  @Test func test_semaphore_as_a_resource_limiter_on_actor_method() async {
    await SemaphorePort.semaphoreAsAResourceLimiterOnActorMethod(cancellable: false)
  }
  @Test func test_semaphore_as_a_resource_limiter_on_single_thread() async {
    await SemaphorePort.semaphoreAsAResourceLimiterOnSingleThread()
  }
  @Test func test_semaphore_as_a_resource_limiter_on_actor_method_with_cancellation_support() async {
    await SemaphorePort.semaphoreAsAResourceLimiterOnActorMethod(cancellable: true)
  }
}

@Suite(.controlledScheduling())
struct SemaphorePortControlledTests {
  @Test func testSignalWithoutSuspendedTasks() { SemaphorePort.signalWithoutSuspendedTasks() }
  @Test func test_signal_returns_whether_it_resumes_a_suspended_task_or_not() async throws {
    try await SemaphorePort.signalReturnsWhetherItResumesASuspendedTask()
  }
  @Test func test_wait_suspends_on_zero_semaphore_until_signal() async throws {
    try await SemaphorePort.waitSuspendsOnZeroSemaphoreUntilSignal()
  }
  @Test func test_cancellation_while_suspended_throws_CancellationError() async throws {
    try await SemaphorePort.cancellationWhileSuspendedThrowsCancellationError()
  }
  @Test func test_cancellation_before_suspension_throws_CancellationError() async throws {
    try await SemaphorePort.cancellationBeforeSuspensionThrowsCancellationError()
  }
  @Test func test_that_cancellation_while_suspended_increments_the_semaphore() async throws {
    try await SemaphorePort.cancellationWhileSuspendedIncrementsTheSemaphore()
  }
  @Test func test_that_cancellation_before_suspension_increments_the_semaphore_two() async {
    await SemaphorePort.cancellationBeforeSuspensionIncrementsTheSemaphoreTwo()
  }
  @Test func test_that_cancellation_while_suspended_increments_the_semaphore_two() async {
    await SemaphorePort.cancellationWhileSuspendedIncrementsTheSemaphoreTwo()
  }
  @Test func test_semaphore_as_a_resource_limiter_on_actor_method() async {
    await SemaphorePort.semaphoreAsAResourceLimiterOnActorMethod(cancellable: false)
  }
  @Test func test_semaphore_as_a_resource_limiter_on_single_thread() async {
    await SemaphorePort.semaphoreAsAResourceLimiterOnSingleThread()
  }
  @Test func test_semaphore_as_a_resource_limiter_on_actor_method_with_cancellation_support() async {
    await SemaphorePort.semaphoreAsAResourceLimiterOnActorMethod(cancellable: true)
  }
}
