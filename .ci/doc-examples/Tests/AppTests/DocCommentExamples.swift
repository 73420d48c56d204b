// The examples in the packages' documentation comments, verbatim, inside the functions and
// declarations they need; the tests run them.
import AsyncOperations
import AsyncQueue
import Foundation
import QueueTesting
import Testing
import XCTest

// MARK: - AsyncOperation

actor OperationStore {
  private(set) var saves = 0
  func save() { saves += 1 }
}

func fetch(_ url: URL, completion: @escaping @Sendable (Data) -> Void) {
  DispatchQueue.global().async { completion(Data()) }
}

func asyncOperationCommentExample(store: OperationStore) async {
  let queue = OperationQueue()
  queue.maxConcurrentOperationCount = 1
  let download = AsyncOperation { finish in
    fetch(url) { _ in finish() }            // a completion-handler API
  }
  let save = AsyncOperation { await store.save() }
  save.addDependency(download)              // starts after the download's finish()
  queue.addOperation(download)              // `addOperation` may be called from async code too
  queue.addOperation(save)
  await withCheckedContinuation { continuation in
    DispatchQueue.global().async {
      queue.waitUntilAllOperationsAreFinished()
      continuation.resume()
    }
  }
}

@Test func asyncOperationCommentExampleRuns() async {
  let store = OperationStore()
  await asyncOperationCommentExample(store: store)
  #expect(await store.saves == 1)
}

// MARK: - CompletionQueue

let needsLogin = false
let presented = LockedCount()

func askForLocationPermission(_ completion: @escaping @Sendable (Bool) -> Void) {
  DispatchQueue.global().async { completion(true) }
}

@MainActor func presentLogin(onDismiss: @escaping @Sendable () -> Void) {
  presented.increment()
  onDismiss()
}

func completionQueueCommentExample() async {
  let prompts = CompletionQueue(name: "prompts")
  prompts.enqueue { finish in
    askForLocationPermission { _ in finish() }    // the next item waits for this call
  }
  prompts.enqueue { finish in
    guard needsLogin else { return finish() }    // an item may finish at once
    presentLogin(onDismiss: { finish() })
  }
  await prompts.waitUntilFinished()
}

@Test func completionQueueCommentExampleFinishes() async {
  await completionQueueCommentExample()
  #expect(presented.current == 0)
}

// MARK: - OrderedProperty

func orderedPropertyCommentExample() async {
  let status = OrderedProperty("idle")
  let token = status.observe { change in
    print(change.oldValue, "→", change.newValue)   // in write order, across threads
    _ = status.value                                // reading here is fine
  }
  let changes = status.changes()                    // the same changes, as an AsyncSequence
  status.value = "loading"
  status.value = "done"
  for await change in changes {
    if change.newValue == "done" { break }          // leaving the loop ends the observation
  }
  token.cancel()
}

@Test func orderedPropertyCommentExampleTerminates() async {
  await orderedPropertyCommentExample()
}

// MARK: - FIFOQueue

func fifoQueueCommentExample(store: Store, first: String, second: String) async {
  let queue = FIFOQueue()
  queue.enqueue { await store.save(first) }
  queue.enqueue { await store.save(second) }   // starts after `first` has finished
  await queue.enqueueAndWait { }               // returns after both
}

@Test func fifoQueueCommentExampleKeepsOrder() async {
  let store = Store()
  await fifoQueueCommentExample(store: store, first: "a", second: "b")
  #expect(await store.saved == ["a", "b"])
}

// MARK: - SingleFlight

struct Image: Sendable {
  let data: Data
}

func download(_ url: URL) async throws -> Image {
  Image(data: try await download(url) as Data)
}

func singleFlightCommentExample() async throws -> Image {
  let images = SingleFlight<URL, Image>(caching: .successes)

  func image(at url: URL) async throws -> Image {
    try await images.value(for: url) {
      try await download(url)    // runs once, however many callers ask at the same time
    }
  }
  async let first = image(at: url)
  async let second = image(at: url)
  return try await (first, second).0
}

@Test func singleFlightCommentExampleRuns() async throws {
  let image = try await singleFlightCommentExample()
  #expect(image.data == Data(url.absoluteString.utf8))
}

// MARK: - QueueTesting

@Test(.controlledScheduling(.random(100, seed: 7)))
func ordersWork() async {
  let queue = FIFOQueue()
  let recorder = OrderRecorder()
  queue.enqueue { recorder.mark("first") }
  queue.enqueue { recorder.mark("second") }
  await queue.enqueueAndWait {}
  expectOrder(recorder, ["first", "second"])
}

@Test func orderRecorderCommentExample() async {
  let queue = FIFOQueue()
  let recorder = OrderRecorder()
  queue.enqueue { recorder.mark("first") }
  queue.enqueue { recorder.mark("second") }
  await queue.enqueueAndWait {}
  expectOrder(recorder, ["first", "second"])
}

final class OrderTests: XCTestCase {
  func testOrder() async {
    await runControlledSchedules(ControlledScheduling(.random(50))) {
      let queue = FIFOQueue()
      let recorder = OrderRecorder()
      queue.enqueue { recorder.mark("first") }
      queue.enqueue { recorder.mark("second") }
      await queue.enqueueAndWait {}
      expectOrder(recorder, ["first", "second"])
    }
  }
}

@Test func testGateCommentExample() async {
  let cache = OrderedProperty(0)
  let loaded = TestGate("loaded")
  let task = Task { await loaded.wait(); return cache.value }
  cache.value = 42
  loaded.open()
  #expect(await task.value == 42)
}

@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
@Test func exhaustiveSearchCommentExample() {
  let exploration = ControlledExecutor.explore(ExhaustiveSearch(delayBound: 2, budget: 1000)) {
    await Task.yield()
  }
  #expect(exploration.search.isExhausted)
}

@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
@Test func traceRecorderCommentExample() async {
  let result = await ControlledExecutor.run(seed: 1) {
    TraceRecorder.mark("started t1")
  }
  #expect(result.trace.columnView(limit: 10).contains("started t1"))
}
