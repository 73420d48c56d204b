// The examples of QueueTesting's DocC catalog, verbatim, compiled and run as a user's tests.
import AsyncQueue
import QueueTesting
import Testing

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
