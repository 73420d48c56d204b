// Tests of dfed/swift-async-queue 1.0.1 (MIT License; Copyright (c) 2022 Dan Federman), from its
// FIFOQueueTests, with its test utilities (`Counter`, `Semaphore`, `Expectation`), ported against
// AsyncQueue, which offers the same `Task(on:)` API: `XCTAssertEqual` is `#expect`, the bodies are
// unchanged. The ordering tests enqueue 1,000 tasks each and run under the default trait.
import AsyncQueue
import QueueTesting
import Testing

actor Counter {
  func incrementAndExpectCount(equals expectedCount: Int) {
    increment()
    #expect(expectedCount == count)
  }

  func increment() {
    count += 1
  }

  var count = 0
}

/// A thread-safe semaphore implementation.
actor Semaphore {
  /// Decrement the counting semaphore. If the resulting value is less than zero, this function waits for a signal to occur before returning.
  /// - Returns: Whether the call triggered a suspension
  @discardableResult
  func wait() async -> Bool {
    count -= 1
    guard count < 0 else {
      // We don't need to wait because count is greater than or equal to zero.
      return false
    }

    await withUnsafeContinuation { continuation in
      continuations.append(continuation)
    }
    return true
  }

  /// Increment the counting semaphore. If the previous value was less than zero, this function resumes a waiting thread before returning.
  func signal() {
    count += 1
    guard !isWaiting else {
      // Continue waiting.
      return
    }

    for continuation in continuations {
      continuation.resume()
    }

    continuations.removeAll()
  }

  var isWaiting: Bool {
    count < 0
  }

  private var continuations = [UnsafeContinuation<Void, Never>]()
  private var count = 0
}

/// The package's expectation: fulfilled once, awaited with a timeout (in virtual time under the
/// harness, where it fires only once nothing else can run).
actor AnchorExpectation {
  init(expectedCount: UInt = 1) {
    self.expectedCount = expectedCount
  }

  func fulfillment(
    withinSeconds seconds: UInt64, filePath: String = #filePath, fileID: String = #fileID, line: Int = #line,
    column: Int = #column
  ) async {
    guard !isComplete else { return }
    let wait = Task {
      try await Task.sleep(nanoseconds: seconds * 1_000_000_000)
      #expect(
        isComplete, "Expectation not fulfilled within \(seconds) seconds",
        sourceLocation: .init(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    waits.append(wait)
    try? await wait.value
  }

  @discardableResult
  nonisolated func fulfill() -> Task<Void, Never> {
    Task {
      await self._fulfill()
    }
  }

  private var waits = [Task<Void, Error>]()
  private var fulfillCount: UInt = 0
  private var isComplete: Bool {
    expectedCount <= fulfillCount
  }

  private let expectedCount: UInt

  private func _fulfill() {
    fulfillCount += 1
    guard isComplete else { return }
    #expect(expectedCount == fulfillCount, "Expected \(expectedCount) calls to `fulfill()`. Received \(fulfillCount).")
    for wait in waits {
      wait.cancel()
    }
    waits = []
  }
}

@Suite(.controlledScheduling())
struct FIFOQueueTests {
  @Test
  func task_sendsEventsInOrder() async {
    let counter = Counter()
    for iteration in 1...1_000 {
      Task(on: systemUnderTest) {
        await counter.incrementAndExpectCount(equals: iteration)
      }
    }
    await Task(on: systemUnderTest) { /* Drain the queue */  }.value
  }

  @Test
  func taskIsolatedTo_sendsEventsInOrder() async {
    let counter = Counter()
    for iteration in 1...1_000 {
      Task(on: systemUnderTest, isolatedTo: counter) { counter in
        counter.incrementAndExpectCount(equals: iteration)
      }
    }
    await Task(on: systemUnderTest) { /* Drain the queue */  }.value
  }

  @Test
  func task_executesAsyncBlocksAtomically() async {
    let semaphore = Semaphore()
    for _ in 1...1_000 {
      Task(on: systemUnderTest) {
        let isWaiting = await semaphore.isWaiting
        // This test will fail occasionally if we aren't executing atomically.
        // You can prove this to yourself by deleting `on: systemUnderTest` above.
        #expect(!isWaiting)
        // Signal the semaphore before or after we wait – let the scheduler decide.
        Task {
          await semaphore.signal()
        }
        // Wait for the concurrent task to complete.
        await semaphore.wait()
      }
    }
    await Task(on: systemUnderTest) { /* Drain the queue */  }.value
  }

  @Test
  func task_executesAfterQueueIsDeallocated() async throws {
    var systemUnderTest: FIFOQueue? = FIFOQueue()
    let counter = Counter()
    let expectation = AnchorExpectation()
    let semaphore = Semaphore()
    Task(on: try #require(systemUnderTest)) {
      // Make the queue wait.
      await semaphore.wait()
      await counter.incrementAndExpectCount(equals: 1)
    }
    Task(on: try #require(systemUnderTest)) {
      // This async task should not execute until the semaphore is released.
      await counter.incrementAndExpectCount(equals: 2)
      expectation.fulfill()
    }
    weak let queue = systemUnderTest
    // Nil out our reference to the queue to show that the enqueued tasks will still complete
    systemUnderTest = nil
    #expect(queue == nil)
    // Signal the semaphore to unlock the remaining enqueued tasks.
    await semaphore.signal()

    await expectation.fulfillment(withinSeconds: 30)
  }

  @Test
  func taskIsolatedTo_executesAfterQueueIsDeallocated() async throws {
    var systemUnderTest: FIFOQueue? = FIFOQueue()
    let counter = Counter()
    let expectation = AnchorExpectation()
    let semaphore = Semaphore()
    Task(on: try #require(systemUnderTest), isolatedTo: counter) { counter in
      // Make the queue wait.
      await semaphore.wait()
      counter.incrementAndExpectCount(equals: 1)
    }
    Task(on: try #require(systemUnderTest), isolatedTo: counter) { counter in
      // This async task should not execute until the semaphore is released.
      counter.incrementAndExpectCount(equals: 2)
      expectation.fulfill()
    }
    weak let queue = systemUnderTest
    // Nil out our reference to the queue to show that the enqueued tasks will still complete
    systemUnderTest = nil
    #expect(queue == nil)
    // Signal the semaphore to unlock the remaining enqueued tasks.
    await semaphore.signal()

    await expectation.fulfillment(withinSeconds: 30)
  }

  private let systemUnderTest = FIFOQueue()
}

// From the same library's ActorQueueTests: the tests that send work through the main actor's queue
// to another actor. Each task leaves the main actor for `counter` before the main actor starts the
// next, so they arrive in order on real threads; a harness that let those arrivals overtake each
// other failed them on its first schedule.
@Suite(.controlledScheduling())
struct ActorQueueTests {
  init() {
    counter = Counter()
  }

  @TestingQueue
  @Test
  func mainTask_sendsEventsInOrder() async throws {
    var lastTask: Task<Void, Error>?
    (1...1_000).forEach { iteration in
      lastTask = Task(on: MainActor.queue) {
        await counter.incrementAndExpectCount(equals: iteration)
      }
    }
    // Drain the queue
    try await #require(lastTask).value
  }

  @TestingQueue
  @Test
  func mainThrowingTask_sendsEventsInOrder() async throws {
    var lastTask: Task<Void, Error>?
    (1...1_000).forEach { iteration in
      lastTask = Task(on: MainActor.queue) {
        await counter.incrementAndExpectCount(equals: iteration)
        try doWork()
      }
    }
    // Drain the queue
    try await #require(lastTask).value
  }

  private let counter: Counter

  @Sendable private func doWork() throws {}
}

/// A global actor that runs off of `main`, where tests may otherwise deadlock due to waiting for `main` from `main`.
@globalActor
private struct TestingQueue {
  fileprivate actor Shared {}
  fileprivate static let shared = Shared()
}
