import QueueWorkloads
import Testing

@testable import AsyncQueue

@MainActor
final class MainActorJournal {
  static let shared = MainActorJournal()
  var entries: [String] = []
}

@Suite("MainActorQueue and MainActor.queue", .serialized, .timeLimit(.minutes(5)), .hangGuard)
struct MainActorQueueTests {
  /// Both faces share one order on the main actor, also with mixed priorities.
  @Test func bothFacesShareOneOrderUnderMixedPriorities() async {
    await MainActor.run { MainActorJournal.shared.entries = [] }
    var tasks: [Task<Void, Never>] = []
    for index in 0..<1000 {
      if index.isMultiple(of: 2) {
        MainActorQueue.shared.enqueue { MainActorJournal.shared.entries.append("\(index)") }
      } else {
        let priority: TaskPriority = index % 4 == 1 ? .background : .high
        tasks.append(
          Task(priority: priority, on: MainActor.queue) {
            MainActor.assertIsolated()
            MainActorJournal.shared.entries.append("\(index)")
          })
      }
    }
    for task in tasks { await task.value }
    await MainActorQueue.shared.enqueueAndWait {}
    #expect(await MainActorJournal.shared.entries == (0..<1000).map { "\($0)" })
  }

  @Test func enqueueAndWaitReturnsAndRethrows() async throws {
    let value = await MainActorQueue.shared.enqueueAndWait { () -> Int in
      MainActor.assertIsolated()
      return 11
    }
    #expect(value == 11)
    await #expect(throws: TestError(id: 5)) {
      try await MainActorQueue.shared.enqueueAndWait { () throws(TestError) in throw TestError(id: 5) }
    }
    let throwing = Task(on: MainActor.queue) { () throws -> Int in throw TestError(id: 6) }
    await #expect(throws: TestError(id: 6)) { try await throwing.value }
  }

  /// An item may wait on the main actor queue itself without deadlocking.
  @Test func itemMayWaitOnTheQueueItself() async {
    let value = await MainActorQueue.shared.enqueueAndWait {
      await MainActorQueue.shared.enqueueAndWait { 1 } + 1
    }
    #expect(value == 2)
  }
}
