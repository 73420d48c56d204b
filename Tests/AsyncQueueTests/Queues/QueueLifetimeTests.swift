import QueueTestingEngine
import QueueWorkloads
import Testing

@testable import AsyncQueue

/// Pending work holds a queue's storage, not the queue: releasing the last reference to a queue
/// frees it at once, while its items still wait and then run, in order. (Each test releases the
/// queue while its first item is held mid-flight by a gate.)
@Suite("Queue lifetime", .timeLimit(.minutes(5)), .hangGuard)
struct QueueLifetimeTests {
  @Test func fifoQueueTasksRunAfterTheQueueIsReleased() async throws {
    var queue: FIFOQueue? = FIFOQueue()
    let gate = TestGate("gate")
    let recorder = QueueOwner()
    Task(on: try #require(queue)) {
      await gate.wait()
      await recorder.record(1)
    }
    let last = Task(on: try #require(queue)) { await recorder.record(2) }
    Task(on: try #require(queue), isolatedTo: recorder) { recorder in recorder.record(3) }
    let throwing = Task(on: try #require(queue)) { () async throws in await recorder.record(4) }
    weak let released = queue
    queue = nil
    #expect(released == nil, "a pending Task(on:) kept the FIFOQueue alive")
    gate.open()
    await last.value
    try await throwing.value
    #expect(await recorder.events == [1, 2, 3, 4])
  }

  @Test func actorQueueTasksRunAfterTheQueueIsReleased() async throws {
    let recorder = QueueOwner()
    var queue: ActorQueue<QueueOwner>? = ActorQueue()
    try #require(queue).adoptExecutionContext(of: recorder)
    let gate = TestGate("gate")
    Task(on: try #require(queue)) { owner in
      owner.record(1)
      await gate.wait()
    }
    let second = Task(on: try #require(queue)) { owner in owner.record(2) }
    let third = Task(on: try #require(queue)) { (owner: isolated QueueOwner) async throws in owner.record(3) }
    weak let released = queue
    queue = nil
    #expect(released == nil, "a pending Task(on:) kept the ActorQueue alive")
    await second.value
    try await third.value
    gate.open()
    #expect(await recorder.events == [1, 2, 3])
  }

  @Test func cancellableQueueTasksRunAfterTheQueuesAreReleased() async throws {
    var queue: CancellableQueue<FIFOQueue>? = CancellableQueue(underlyingQueue: FIFOQueue())
    let gate = TestGate("gate")
    let recorder = QueueOwner()
    Task(on: try #require(queue)) {
      await gate.wait()
      await recorder.record(1)
    }
    let last = Task(on: try #require(queue)) { await recorder.record(2) }
    weak let released = queue
    weak let underlying = queue?.underlyingQueue
    queue = nil
    #expect(released == nil && underlying == nil, "a pending Task(on:) kept a queue alive")
    gate.open()
    await last.value
    #expect(await recorder.events == [1, 2])
  }

  /// Records the order items ran in; the actor an actor queue runs on.
  actor QueueOwner {
    var events: [Int] = []
    func record(_ event: Int) { events.append(event) }
  }
}
