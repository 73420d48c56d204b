// The README's and the AsyncQueue catalog's examples of the queues and the tools around them,
// verbatim, inside the functions and declarations they need; the tests run them.
import AsyncOperations
import AsyncQueue
import Foundation
import Synchronization
import Testing

// MARK: - What the examples talk to

actor Store {
  private(set) var saved: [String] = []
  private(set) var flushes = 0

  var count: Int { saved.count }
  func save(_ record: String) { saved.append(record) }
  func load() throws -> [String] { saved }
  func flush() { flushes += 1 }
}

@MainActor final class Label {
  var text = ""
}

let url = URL(string: "https://example.com/image.png")!
let downloads = LockedCount()

func download(_ url: URL) async throws -> Data {
  downloads.increment()
  await Task.yield()
  return Data(url.absoluteString.utf8)
}

func fetch(_ url: URL) async throws -> Data {
  try await download(url)
}

func requestPermission(_ completion: @escaping @Sendable (Bool) -> Void) {
  DispatchQueue.global().async { completion(true) }
}

func fetchProfile(_ completion: @escaping @Sendable (String) -> Void) {
  DispatchQueue.global().async { completion("profile") }
}

/// A counter other threads may bump.
final class LockedCount: Sendable {
  private let value = Mutex(0)

  func increment() { value.withLock { $0 += 1 } }
  var current: Int { value.withLock { $0 } }
}

// MARK: - FIFOQueue

func fifoQueueExample(store: Store, first: String) async throws -> (Int, [String]) {
  let queue = FIFOQueue()
  queue.enqueue { await store.save(first) }                          // from synchronous code: fire and forget
  let count = await queue.enqueueAndWait { await store.count }      // wait for the result (rethrows errors)
  let task = Task(on: queue) { try await store.load() }              // a real Task, in the queue's order
  let isolated = Task(on: queue, isolatedTo: store) { store in store.flush() }
  await isolated.value
  return (count, try await task.value)
}

@Test func fifoQueueExampleRunsInOrder() async throws {
  let store = Store()
  let (count, loaded) = try await fifoQueueExample(store: store, first: "a")
  #expect(count == 1)
  #expect(loaded == ["a"])
  #expect(await store.flushes == 1)
}

// MARK: - ActorQueue and the main actor

actor LogStore {
  init() { queue.adoptExecutionContext(of: self) }

  nonisolated func log(_ line: String) {
    queue.enqueue { myself in myself.lines.append(line) }          // starts on the actor, in call order
  }

  func flush() async { await queue.enqueueAndWait { _ in } }

  private var lines: [String] = []
  private let queue = ActorQueue<LogStore>()
}

@MainActor func showDone(_ label: Label) {
  MainActorQueue.shared.enqueue { label.text = "done" }            // main-actor work in call order
  Task(on: MainActor.queue) { label.text = "shown" }               // the same order as the line above
}

extension LogStore {
  var snapshot: [String] { lines }
}

@Test func actorQueueExampleKeepsCallOrder() async {
  let store = LogStore()
  for index in 1...50 { store.log("line \(index)") }
  await store.flush()
  #expect(await store.snapshot == (1...50).map { "line \($0)" })
}

@Test @MainActor func mainActorExampleKeepsCallOrder() async {
  let label = Label()
  showDone(label)
  await MainActor.queue.enqueueAndWait { _ in }
  #expect(label.text == "shown")
}

// MARK: - The smaller tools

func toolsExample(store: Store, first: String) async throws -> Data {
  let images = SingleFlight<URL, Data>(caching: .successes)
  let image = try await images.value(for: url) { try await download(url) }   // concurrent callers share one download

  let prompts = CompletionQueue(name: "prompts")
  prompts.enqueue { finish in requestPermission { _ in finish() } }        // the next item starts after finish()

  let status = OrderedProperty("idle")
  let changes = status.changes()
  status.value = "loading"
  status.value = "done"
  for await change in changes {
    print(change.oldValue, "→", change.newValue)                            // idle → loading, loading → done
    if change.newValue == "done" { break }                                  // leaving the loop ends the observation
  }

  let fetches = AsyncSemaphore(value: 3)
  let data = try await fetches.withPermitUnlessCancelled { try await fetch(url) }   // three fetches at most at once
  #expect(data == Data(url.absoluteString.utf8))

  let operations = OperationQueue()
  operations.maxConcurrentOperationCount = 1
  let profile = AsyncOperation { finish in fetchProfile { _ in finish() } }   // done when finish() is called
  let save = AsyncOperation { await store.save(first) }                       // done when the closure returns
  save.addDependency(profile)
  operations.addOperation(profile)
  operations.addOperation(save)

  await prompts.waitUntilFinished()
  // Waiting blocks a thread: do it on one of Dispatch's, not the cooperative pool's.
  await withCheckedContinuation { continuation in
    DispatchQueue.global().async {
      operations.waitUntilAllOperationsAreFinished()
      continuation.resume()
    }
  }
  return image
}

/// The loop over `changes` ends (a hang would fail at the time limit), the operations run in
/// dependency order, and the download's data comes back.
@Test(.timeLimit(.minutes(1))) func toolsExampleRuns() async throws {
  let store = Store()
  let image = try await toolsExample(store: store, first: "a")
  #expect(image == Data(url.absoluteString.utf8))
  #expect(await store.saved == ["a"])
}
