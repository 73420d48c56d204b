// The examples of QueueTesting's DocC catalog, verbatim, compiled and run as a user's tests.
import AsyncQueue
import Dispatch
import QueueTesting
import Testing
import XCTest

// MARK: - QueueTesting.md: its example is the README's second test (FirstTest.swift)

// MARK: - ChoosingAStrategy.md

@Test(.controlledScheduling(.portfolio(200)))
func reportIsBuiltOnce() async throws {
  let builds = OrderRecorder()
  let reports = SingleFlight<String, String>(caching: .successes)
  async let first = reports.value(for: "weekly") { builds.mark("build"); await Task.yield(); return "report" }
  async let second = reports.value(for: "weekly") { builds.mark("build"); await Task.yield(); return "report" }
  _ = try await (first, second)
  expectOrder(builds, ["build"])   // two callers, one build, on every schedule
}

actor Leases {
  private(set) var held = 0
  func take() { held += 1 }
  func giveBack() { held -= 1 }
}

@Test(.controlledScheduling(.portfolio(200), cancelling: .named("download")))
func downloadGivesBackItsLease() async {
  let leases = Leases()
  let download = Task(name: "download") {
    await leases.take()
    try? await Task.sleep(for: .seconds(1))   // a cancellation ends the sleep early
    await leases.giveBack()
  }
  await download.value
  #expect(await leases.held == 0)   // whether or when the schedule cancelled the download
}

// MARK: - SchedulingPoints.md

actor ArticleAccount {
  private(set) var balance = 100
  let log = ArticleLog()

  func withdraw(_ amount: Int) async {
    let current = balance
    await log.record()
    balance = current - amount
  }
}

actor ArticleLog {
  func record() {}
}

/// The article's unstructured task with the harness's preference: its hops are all choices.
@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
@Test func unstructuredTaskWithTheHarnessPreference() {
  let exploration = ControlledExecutor.explore(ExhaustiveSearch(delayBound: nil)) {
    let account = ArticleAccount()
    let first = Task(executorPreference: ControlledExecutor.taskExecutor) { await account.withdraw(10) }
    await first.value
  }
  #expect(exploration.search.isExhausted)
}

// MARK: - MakingAnAsyncTestDeterministic.md

enum ProfileClient {
  static func fetchName(id: Int, completion: @escaping @Sendable (String) -> Void) {
    DispatchQueue.global().async { completion("user \(id)") }
  }

  static func fetchName(id: Int) async -> String {
    await withCheckedContinuation { continuation in
      fetchName(id: id) { continuation.resume(returning: $0) }
    }
  }
}

@Test(.controlledScheduling())
func loadsBothProfiles() async {
  async let first = ProfileClient.fetchName(id: 1)
  async let second = ProfileClient.fetchName(id: 2)
  #expect(await [first, second] == ["user 1", "user 2"])
}

@Test(.controlledScheduling(.random(50, seed: 1)))
func fifoQueueKeepsOrder() async {
  let queue = FIFOQueue()
  let recorder = OrderRecorder()
  for index in 1...10 {
    queue.enqueue { recorder.mark("item \(index)") }
  }
  await queue.enqueueAndWait {}
  expectOrder(recorder, (1...10).map { "item \($0)" })
  expectQueueGuarantees()
}

/// One download per URL, shared by concurrent callers: the in-flight task is stored before the
/// first suspension, so a second caller finds it.
actor ImageCache {
  private let download: @Sendable (String) async -> String
  private var entries: [String: Task<String, Never>] = [:]

  init(download: @escaping @Sendable (String) async -> String) {
    self.download = download
  }

  func image(from url: String) async -> String {
    if let entry = entries[url] { return await entry.value }
    let download = self.download
    let task = Task { await download(url) }
    entries[url] = task
    return await task.value
  }
}

@Test(.controlledScheduling(.exhaustive(delayBound: 2)))
func cacheDownloadsOnce() async throws {
  let downloads = OrderRecorder()
  let cache = ImageCache { url in
    downloads.mark(url)
    await Task.yield()
    return "image of \(url)"
  }
  async let first = cache.image(from: "a")
  async let second = cache.image(from: "a")
  _ = await (first, second)
  expectOrder(downloads, ["a"])
}

@Test(.controlledScheduling(.random(20)))
func gateHoldsWorkUntilOpened() async {
  let gate = TestGate("loaded")
  let recorder = OrderRecorder()
  let worker = Task {
    await gate.wait()
    recorder.mark("worker")
  }
  recorder.mark("test")
  gate.open()
  await worker.value
  expectOrder(recorder, ["test", "worker"])
}

final class CounterTests: XCTestCase {
  func testQueueKeepsOrder() async {
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
