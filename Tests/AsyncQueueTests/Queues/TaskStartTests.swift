import Dispatch
import Foundation
import QueueWorkloads
import Synchronization
import Testing

@testable import AsyncQueue

/// A serial executor that remembers, for each job handed to it, whether the hand-off happened on
/// the thread that is creating a task at that moment (see ``TaskStartTests``).
final class HandOffRecordingExecutor: SerialExecutor {
  private let queue = DispatchQueue(label: "HandOffRecordingExecutor")
  /// The thread inside a task-creating call, while it is inside it.
  private let creatingThread = Mutex<ObjectIdentifier?>(nil)
  /// For each enqueued job: whether it was enqueued by the creating thread during the call.
  private let handOffs = Mutex<[Bool]>([])

  func enqueue(_ job: consuming ExecutorJob) {
    let current = ObjectIdentifier(Thread.current)
    let duringCreation = creatingThread.withLock { $0 == current }
    handOffs.withLock { $0.append(duringCreation) }
    let unownedJob = UnownedJob(job)
    queue.async { unownedJob.runSynchronously(on: self.asUnownedSerialExecutor()) }
  }

  /// Runs `create` (which must not suspend) with this thread marked as the creating one, and
  /// returns how the jobs enqueued from the start of the call up to its end were handed over.
  func handOffs(whileCreating create: () -> Void) -> [Bool] {
    let before = handOffs.withLock { $0.count }
    creatingThread.withLock { $0 = ObjectIdentifier(Thread.current) }
    create()
    creatingThread.withLock { $0 = nil }
    return handOffs(since: before)
  }

  /// How many jobs were enqueued so far.
  var handOffCount: Int { handOffs.withLock { $0.count } }

  /// How the jobs enqueued after the first `count` were handed over.
  func handOffs(since count: Int) -> [Bool] {
    handOffs.withLock { Array($0[count...]) }
  }
}

/// An actor running on a ``HandOffRecordingExecutor``, with an actor queue.
actor RecordedActor {
  nonisolated let executor = HandOffRecordingExecutor()
  let queue = ActorQueue<RecordedActor>()
  var entries: [String] = []

  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  init() { queue.adoptExecutionContext(of: self) }

  func write(_ entry: String) { entries.append(entry) }
}

/// Where the queues' tasks start when no harness is installed.
///
/// A task that starts without isolation and then hops to its actor is enqueued on the actor
/// later, by a global-executor thread; a task that starts on its actor is enqueued on it inside
/// `Task.init`, by the creating thread. The recording executor tells the two apart without timing.
@Suite("Where queue tasks start", .timeLimit(.minutes(5)), .hangGuard)
struct TaskStartTests {
  /// `Task(on: actorQueue)`, both forms: the task's first job goes straight to the actor.
  @Test func actorQueueTasksStartOnTheirActor() async throws {
    let recorded = RecordedActor()
    var tasks: [Task<Void, Never>] = []
    var throwing: Task<Int, any Error>?
    let handOffs = recorded.executor.handOffs {
      tasks.append(Task(on: recorded.queue) { actor in actor.write("first") })
      throwing = Task(on: recorded.queue) { (actor: isolated RecordedActor) throws -> Int in
        actor.write("second")
        return 2
      }
      tasks.append(Task(on: recorded.queue) { actor in actor.write("third") })
    }
    #expect(handOffs == [true, true, true])
    for task in tasks { await task.value }
    #expect(try await throwing?.value == 2)
    #expect(await recorded.entries == ["first", "second", "third"])
  }

  /// `Task(on: fifoQueue, isolatedTo:)`, both forms: the task starts on the actor it runs on.
  @Test func fifoTasksIsolatedToAnActorStartOnIt() async throws {
    let recorded = RecordedActor()
    let queue = FIFOQueue()
    var plain: Task<Void, Never>?
    var throwing: Task<Int, any Error>?
    let handOffs = recorded.executor.handOffs {
      plain = Task(on: queue, isolatedTo: recorded) { actor in actor.write("first") }
      throwing = Task(on: queue, isolatedTo: recorded) { (actor: isolated RecordedActor) throws -> Int in
        actor.write("second")
        return 2
      }
    }
    #expect(handOffs == [true, true])
    await plain?.value
    #expect(try await throwing?.value == 2)
    #expect(await recorded.entries == ["first", "second"])
  }

  /// The recorder itself: a task that hops to the actor from the global executor is not counted
  /// as started there, so the two tests above can fail.
  @Test func aHopFromTheGlobalExecutorIsNotCountedAsAStart() async {
    let recorded = RecordedActor()
    let before = recorded.executor.handOffCount
    var task: Task<Void, Never>?
    _ = recorded.executor.handOffs {
      task = Task.detached { await recorded.write("hopped") }
    }
    await task?.value
    // The hop is the one job enqueued so far, whenever it happened.
    #expect(recorded.executor.handOffs(since: before) == [false])
    #expect(await recorded.entries == ["hopped"])
  }
}
