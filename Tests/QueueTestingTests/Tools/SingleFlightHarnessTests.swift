#if compiler(>=6.3)
  import AsyncQueue
  import QueueTesting
  import Testing
  import QueueWorkloads

  /// `SingleFlight` under the controlled executor: the properties hold on every schedule, where
  /// the naive actor cache (see `naiveActorCacheDownloadsTwice`) fails on one of the first few.
  @Suite("SingleFlight under controlled schedules", .timeLimit(.minutes(5)), .hangGuard)
  struct SingleFlightHarnessTests {
    /// The duplicate-download cache with `SingleFlight`: two concurrent requests download once, on every schedule of
    /// the whole (unbounded) exhaustive space.
    @available(ExecutorHooks 1.0, *)
    @Test func downloadsOnceOverExhaustiveSearch() async throws {
      let report = await ControlledScheduling(.exhaustive(delayBound: nil, budget: 20_000)).run {
        let downloader = Downloader()
        let images = SingleFlight<String, String>(caching: .successes)
        async let first = images.value(for: "u") { try await downloader.download("u") }
        async let second = images.value(for: "u") { try await downloader.download("u") }
        let results = try await [first, second]
        if results != ["image of u", "image of u"] { throw Mismatch("\(results)") }
        if await downloader.downloads > 1 { throw DownloadedTwice() }
      }
      #expect(report.failure == nil)
      // The flight's operation is a task of SingleFlight's own; under a controlled run it
      // prefers the harness's executor, so its hops are choices too and the space is exhausted.
      #expect(report.exhausted == true)
      #expect(report.inlineHopTasks.isEmpty)
      #expect(report.schedulesRun > 1)
    }

    /// A failure reaches every waiter of that flight and is not cached: the next request
    /// retries and succeeds.
    @available(ExecutorHooks 1.0, *)
    @Test func failureEvictsSoTheNextCallerRetries() async throws {
      let report = await ControlledScheduling(.random(50, seed: 3)).run {
        let attempts = Counter()
        let flights = SingleFlight<String, Int>(caching: .successes)
        let operation: @Sendable () async throws -> Int = {
          let attempt = await attempts.increment()
          await Task.yield()
          if attempt == 1 { throw Flaky() }
          return attempt
        }
        async let first = outcome { try await flights.value(for: "k", operation: operation) }
        async let second = outcome { try await flights.value(for: "k", operation: operation) }
        let results = await [first, second]
        // Whoever shared the first attempt saw its error; a request that came after it retried.
        for result in results {
          if case .failure(let error) = result, !(error is Flaky) { throw Mismatch("\(error)") }
        }
        let retried = try await flights.value(for: "k", operation: operation)
        if retried < 2 { throw Mismatch("retry returned \(retried)") }
        if flights.cachedValue(for: "k") != retried { throw Mismatch("success not cached") }
      }
      #expect(report.failure == nil)
      #expect(report.schedulesRun == 50)
    }

    /// Cancelling one waiter never cancels an operation another waiter still awaits: the other
    /// waiter always gets an uncancelled result. On some schedules both had joined one operation
    /// when the first was cancelled; those are counted, to show the case was exercised.
    @available(ExecutorHooks 1.0, *)
    @Test func cancellingOneWaiterLeavesTheOperationForTheOther() async throws {
      let shared = Counter()
      let report = await ControlledScheduling(.random(200, seed: 11)).run {
        let gate = TestGate("download")
        let operations = Counter()
        let flights = SingleFlight<String, String>()
        let operation: @Sendable () async throws -> String = {
          await operations.increment()
          await gate.wait()
          return Task.isCancelled ? "cancelled" : "done"
        }
        let first = Task { try await flights.value(for: "k", operation: operation) }
        let second = Task { try await flights.value(for: "k", operation: operation) }
        await Task.yield()
        first.cancel()
        gate.open()
        let secondResult = try await second.value
        if secondResult != "done" { throw Mismatch("the remaining waiter got '\(secondResult)'") }
        let firstResult = await first.result
        let firstCancelled = (try? firstResult.get()) == nil
        if firstCancelled, await operations.value == 1 { await shared.increment() }
      }
      #expect(report.failure == nil)
      #expect(report.schedulesRun == 200)
      #expect(await shared.value > 0, "no schedule had both waiters on one operation when one was cancelled")
    }

    /// Cancelling the only waiter cancels the operation, and frees the key.
    @available(ExecutorHooks 1.0, *)
    @Test func cancellingTheLastWaiterCancelsTheOperation() async throws {
      let report = await ControlledScheduling(.random(50, seed: 5)).run {
        let gate = TestGate("download")
        let ended = TestGate("operation ended")
        let started = Counter()
        let sawCancellation = Counter()
        let flights = SingleFlight<String, String>()
        let waiter = Task {
          try await flights.value(for: "k") {
            defer { ended.open() }
            await started.increment()
            await gate.wait()
            if Task.isCancelled { await sawCancellation.increment() }
            return "done"
          }
        }
        await Task.yield()
        waiter.cancel()
        gate.open()
        let result = await waiter.result
        // Either the request was cancelled (and so was its operation, if it had started), or
        // the value arrived before the cancellation.
        if (try? result.get()) == nil {
          // A cancelled waiter leaves at once; an operation that had started still runs to its
          // end (where it sees the cancellation), so compare only once it has ended.
          if await started.value > 0 { await ended.wait() }
          if await started.value != sawCancellation.value {
            throw Mismatch("the operation nobody awaited was not cancelled")
          }
          let fresh = try await flights.value(for: "k") { "fresh" }
          if fresh != "fresh" { throw Mismatch("the key was not freed: \(fresh)") }
        }
      }
      #expect(report.failure == nil)
    }
  }

  struct Mismatch: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  struct Flaky: Error {}

  func outcome<Value>(_ body: () async throws -> Value) async -> Result<Value, any Error> {
    do {
      return .success(try await body())
    } catch {
      return .failure(error)
    }
  }

  actor Counter {
    private(set) var value = 0

    /// Adds one; returns the new value.
    @discardableResult
    func increment() -> Int {
      value += 1
      return value
    }
  }
#endif
