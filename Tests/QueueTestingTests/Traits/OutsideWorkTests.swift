#if compiler(>=6.3)
  import Dispatch
  import Synchronization
  import Testing

  @testable import QueueTesting
  @testable import QueueTestingEngine
  import QueueWorkloads

  /// A serial executor on a Dispatch queue: the usual bridge from an actor to legacy code.
  /// Its jobs run on the queue's thread, outside the harness.
  final class QueueExecutor: SerialExecutor {
    let queue = DispatchQueue(label: "QueueExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
      let job = UnownedJob(job)
      let executor = asUnownedSerialExecutor()
      queue.async { job.runSynchronously(on: executor) }
    }
  }

  /// A task executor on a Dispatch queue, for `withTaskExecutorPreference`.
  final class QueueTaskExecutor: TaskExecutor {
    let queue = DispatchQueue(label: "QueueTaskExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
      let job = UnownedJob(job)
      let executor = asUnownedTaskExecutor()
      queue.async { job.runSynchronously(on: executor) }
    }
  }

  /// A server whose reply suspends the caller (an `await` that leaves the store's actor).
  enum SlowServer {
    static func fetch(_ key: String) async -> Int {
      await Task.yield()
      return key.count
    }
  }

  /// A cache on a Dispatch-backed actor. `buggy`: check, await, then act (two callers both miss
  /// and both fetch). Fixed: the first caller's fetch is shared.
  actor QueueBackedCache {
    private let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    let buggy: Bool
    private var values: [String: Int] = [:]
    private var inFlight: [String: Task<Int, Never>] = [:]
    private(set) var fetches = 0

    init(buggy: Bool) { self.buggy = buggy }

    func value(for key: String) async -> Int {
      if buggy {
        if let value = values[key] { return value }
        fetches += 1
        let value = await SlowServer.fetch(key)
        values[key] = value
        return value
      }
      if let task = inFlight[key] { return await task.value }
      fetches += 1
      let task = Task { await SlowServer.fetch(key) }
      inFlight[key] = task
      return await task.value
    }
  }

  /// A completion-handler API whose handler is called on a global Dispatch queue (the shape of
  /// URLSession and database clients).
  enum CallbackClient {
    static func load(_ key: String, completion: @escaping @Sendable (Int) -> Void) {
      DispatchQueue.global().async { completion(key.count) }
    }

    static func load(_ key: String) async -> Int {
      await withCheckedContinuation { continuation in
        load(key) { continuation.resume(returning: $0) }
      }
    }
  }

  struct ExpectationFailed: Error, CustomStringConvertible {
    let description: String
  }

  /// Work outside the harness's control (jobs on user executors, continuations resumed from
  /// threads the harness does not own) gives no false deadlock and no replay mismatch, with no
  /// declaration in the test; runs with such work say so, and a search with it never claims to
  /// have exhausted anything.
  @Suite("Work outside the harness", .serialized, .timeLimit(.minutes(5)), .hangGuard)
  struct OutsideWorkTests {
    static func cacheBody(buggy: Bool) -> @Sendable () async throws -> Void {
      {
        let cache = QueueBackedCache(buggy: buggy)
        async let first = cache.value(for: "key")
        async let second = cache.value(for: "key")
        _ = await (first, second)
        let fetches = await cache.fetches
        if fetches != 1 { throw ExpectationFailed(description: "fetched \(fetches) times") }
      }
    }

    @Test("Correct code on a Dispatch-backed actor passes every schedule, and says its jobs ran outside")
    @available(ExecutorHooks 1.0, *)
    func dispatchBackedActorFixPasses() {
      let report = ControlledScheduling(.portfolio(50, seed: 1)).runSeries(
        Self.cacheBody(buggy: false), failureCount: nil)
      #expect(report.failure == nil, "\(report.failure?.message() ?? "")")
      #expect(report.schedulesRun == 50)
      #expect(report.outsideWork.executors.contains("QueueExecutor"), "\(report.outsideWork)")
    }

    @Test("A Dispatch-backed actor's check-then-act bug is found as the bug, and its replay fails again")
    @available(ExecutorHooks 1.0, *)
    func dispatchBackedActorBugIsFound() throws {
      let report = ControlledScheduling(.portfolio(50, seed: 1)).runSeries(
        Self.cacheBody(buggy: true), failureCount: nil)
      let failure = try #require(report.failure)
      #expect(failure.problem == .threw("fetched 2 times"), "\(failure.message())")
      let message = failure.message()
      #expect(message.contains("ran outside the harness"), "\(message)")
      for _ in 0..<5 {
        let replay = ControlledScheduling(.replay(failure.run.schedule)).runSeries(
          Self.cacheBody(buggy: true), failureCount: nil)
        #expect(replay.failure?.problem == .threw("fetched 2 times"))
      }
    }

    @Test("A completion handler called on a Dispatch queue, bridged with a continuation, needs no declaration")
    @available(ExecutorHooks 1.0, *)
    func completionHandlerBridgePasses() {
      let report = ControlledScheduling(.portfolio(50, seed: 2)).runSeries(
        {
          async let first = CallbackClient.load("one")
          async let second = CallbackClient.load("three")
          let values = await [first, second]
          if values != [3, 5] { throw ExpectationFailed(description: "\(values)") }
        }, failureCount: nil)
      #expect(report.failure == nil, "\(report.failure?.message() ?? "")")
      #expect(report.schedulesRun == 50)
      // The report notices the work handed to Dispatch. Whether a resumption also comes back as a
      // job of its own depends on real threads (a callback that resumes the continuation before
      // its task has suspended leaves no job), so that count is not asserted. Under the thread
      // sanitizer, whose runtime takes the Dispatch calls itself, the hand-off is not counted.
      if ControlledExecutor.countsOutsideWork {
        #expect(report.outsideWork.handedToDispatch > 0, "\(report.outsideWork)")
      }
    }

    @Test("Code under a task-executor preference of its own completes, and an exhaustive search does not claim it")
    @available(ExecutorHooks 1.0, *)
    func ownTaskExecutorCompletes() {
      let executor = QueueTaskExecutor()
      let report = ControlledScheduling(.exhaustive(delayBound: nil, budget: 20)).runSeries(
        {
          let sum = await withTaskExecutorPreference(executor) {
            async let one = SlowServer.fetch("a")
            async let two = SlowServer.fetch("bb")
            return await one + two
          }
          if sum != 3 { throw ExpectationFailed(description: "sum \(sum)") }
        }, failureCount: nil)
      #expect(report.failure == nil, "\(report.failure?.message() ?? "")")
      #expect(report.exhausted == false, "the body ran outside the harness: nothing was exhausted")
      #expect(report.outsideWork.jobs > 0)
    }

    @Test("A real deadlock is still reported after the bounded wait, naming the wait and how to change it")
    @available(ExecutorHooks 1.0, *)
    func realDeadlockIsReportedAfterTheWait() throws {
      // The continuation is kept (as a callback registry would keep it), never resumed: the
      // runtime cannot tell, and neither can the harness before its wait. (A dropped one the
      // runtime reports at once; see the leaked-continuation tests.)
      let keeper = Mutex<[CheckedContinuation<Void, Never>]>([])
      let result = ControlledExecutor.runBlocking(
        strategy: SeededRandomStrategy(seed: 1), outsideWorkTimeout: .milliseconds(50)
      ) {
        await withCheckedContinuation { continuation in keeper.withLock { $0.append(continuation) } }
      }
      guard case .deadlocked(let report) = result.outcome else {
        Issue.record("expected a deadlock, got \(result.outcome)")
        return
      }
      #expect(report.waitedForOutsideWork == .milliseconds(50))
      #expect(report.description.contains("outsideWorkTimeout"), "\(report)")
    }
  }
#endif
