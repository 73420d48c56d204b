#if compiler(>=6.3)
  import Dispatch
  import Foundation
  import Synchronization
  @testable import QueueTestingEngine
  import Testing
  import QueueWorkloads

  /// A value a Dispatch callback sets, read by the run.
  final class CallbackBox: Sendable {
    private let storage = Mutex<Int?>(nil)
    func set(_ value: Int) { storage.withLock { $0 = value } }
    var value: Int? { storage.withLock { $0 } }
  }

  /// Virtual time never outruns real threads: while work the run handed to Dispatch has not run,
  /// a jump of virtual time waits for it (up to the jump, and the outside-work timeout), as a
  /// real sleep would have; pure Swift-concurrency code never waits.
  ///
  /// The tests with callbacks run in processes of their own: a test process whose other tests
  /// block every thread of Dispatch's pool (each waiting for its controlled run) would starve
  /// the callback, as it would on real threads.
  @Suite(
    "Virtual time and real threads",
    .enabled(
      if: ControlledExecutor.countsOutsideWork,
      "the test binary's Dispatch and thread calls reach the harness (not under the thread sanitizer)"),
    .timeLimit(.minutes(5)), .hangGuard)
  struct VirtualTimeAndRealThreadsTests {
    /// A callback due in a millisecond, then a 200-millisecond sleep, then the callback's value:
    /// on real threads the callback always wins.
    static let callbackBeforeSleep: @Sendable () async -> Void = {
      let box = CallbackBox()
      DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(1)) { box.set(42) }
      try? await Task.sleep(for: .milliseconds(200))
      TraceRecorder.mark("value: \(box.value.map(String.init) ?? "none")")
    }

    static func marks(_ result: RunResult) -> [String] {
      result.trace.events.compactMap { if case .mark(let text) = $0.kind { text } else { nil } }
    }

    /// Runs 20 schedules of each strategy and an exhaustive search of the callback-before-sleep
    /// body, and prints how many saw the callback's value, and how long it all took.
    @available(ExecutorHooks 1.0, *)
    static func printCallbackWins() -> Never {
      let started = ContinuousClock.now
      for series in [ScheduleSeries.random(20, seed: 1), .pct(20, depth: 2, seed: 1), .portfolio(20, seed: 1)] {
        var wins = 0
        series.runSchedules { strategy in
          let result = ControlledExecutor.runBlocking(strategy: strategy, callbackBeforeSleep)
          if marks(result) == ["value: 42"] { wins += 1 }
          return (result, true)
        }
        print("\(series): \(wins) of 20")
      }
      let exploration = ControlledExecutor.explore(ExhaustiveSearch(delayBound: nil, budget: 50), callbackBeforeSleep) {
        !marks($0).contains("value: 42")
      }
      print("exhaustive: \(exploration.stoppedAt == nil ? "every" : "not every") schedule")
      // Waiting out every 200 ms sleep would take 63 × 200 ms, 12.6 s.
      print("took \(started.duration(to: .now) < .seconds(6) ? "under" : "over") 6 s")
      exit(0)
    }

    /// Every strategy's every schedule sees the callback win, and the waits take about the
    /// callback's millisecond, not the sleep's 200 (63 runs in well under 63 × 200 ms).
    @available(ExecutorHooks 1.0, *)
    @Test func aCallbackDueBeforeASleepEndsWinsItsRace() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        VirtualTimeAndRealThreadsTests.printCallbackWins()
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("random, 20 schedules, seed 1: 20 of 20"), "\(output)")
      #expect(output.contains("PCT depth 2, 20 schedules, seed 1: 20 of 20"), "\(output)")
      #expect(output.contains("seed 1: 20 of 20\nexhaustive"), "\(output)")
      #expect(output.contains("exhaustive: every schedule"), "\(output)")
      #expect(output.contains("took under 6 s"), "\(output)")
    }

    /// A continuation resumed from a Dispatch queue before its task suspends: nothing comes back
    /// to the run as a job, but the run did hand work to another thread, whose timing decided
    /// the path. An exhaustive search of it never claims the space exhausted.
    static let resumedFromDispatchFirst: @Sendable () async -> Void = {
      let value = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
        let resumed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
          continuation.resume(returning: 7)
          resumed.signal()
        }
        resumed.wait()
      }
      TraceRecorder.mark("got \(value)")
    }

    @available(ExecutorHooks 1.0, *)
    static func printExhaustedClaim(model: RuntimeModel = .faithful) -> Never {
      let exploration = ControlledExecutor.explore(
        ExhaustiveSearch(delayBound: nil, budget: 50), model: model, resumedFromDispatchFirst)
      print("ran every schedule: \(exploration.search.ranEverySchedule), exhausted: \(exploration.search.isExhausted)")
      print("outside: \(exploration.search.outsideWork)")
      exit(0)
    }

    @available(ExecutorHooks 1.0, *)
    @Test func workHandedToDispatchKeepsASearchFromClaimingExhaustion() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        VirtualTimeAndRealThreadsTests.printExhaustedClaim()
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("ran every schedule: true, exhausted: false"), "\(output)")
      #expect(output.contains("work item(s) ran on Dispatch queues beside the run"), "\(output)")
    }

    /// The mutation check: without counting the work handed to Dispatch, the search calls the
    /// space exhausted, although another thread's timing decided every run.
    @available(ExecutorHooks 1.0, *)
    @Test func withoutCountingDispatchWorkTheSearchClaimsExhaustion() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        VirtualTimeAndRealThreadsTests.printExhaustedClaim(model: .faithful { $0.countsOutsideWork = false })
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("ran every schedule: true, exhausted: true"), "\(output)")
    }

    /// A thread the body starts finishes its work in a millisecond; the body sleeps 100
    /// second and reads the result, as a test that lets an event loop's thread run would.
    static let threadFinishesDuringSleep: @Sendable () async -> Void = {
      let box = CallbackBox()
      let thread = Thread {
        usleep(1_000)
        box.set(9)
      }
      thread.start()
      try? await Task.sleep(for: .seconds(1))
      TraceRecorder.mark("value: \(box.value.map(String.init) ?? "none")")
    }

    /// Every schedule sees the thread's result, as real threads do; the waits end when the
    /// thread does (20 runs take far less than 20 × 1 s).
    @available(ExecutorHooks 1.0, *)
    @Test func aThreadTheBodyStartsFinishesBeforeTheSleepEnds() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        let started = ContinuousClock.now
        var seen = 0
        for seed in UInt64(1)...20 {
          let result = ControlledExecutor.runBlocking(
            seed: seed, VirtualTimeAndRealThreadsTests.threadFinishesDuringSleep)
          if VirtualTimeAndRealThreadsTests.marks(result) == ["value: 9"] { seen += 1 }
          if seed == 1 { print("outside: \(result.outsideWork)") }
        }
        print("seen \(seen) of 20 in \(started.duration(to: .now) < .seconds(10) ? "under" : "over") 10 s")
        exit(0)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("seen 20 of 20 in under 10 s"), "\(output)")
      #expect(output.contains("1 thread(s) it started ran beside the run"), "\(output)")
    }

    /// A worker thread that exists before any run (an event loop made by an earlier test, a
    /// fixture's thread): each request it is woken for takes it a millisecond to serve. It waits
    /// on a condition, on a `DispatchSemaphore`, or in a read of a pipe.
    final class PreexistingWorker: Sendable {
      enum WakeUp: String, CaseIterable, Codable, Sendable { case condition, dispatchSemaphore, pipe }
      private let wakeUp: WakeUp
      private let condition = NSCondition()
      private let semaphore = DispatchSemaphore(value: 0)
      /// The pipe's read and write ends (for `.pipe`).
      private let pipeEnds: (read: Int32, write: Int32)
      private let requests = Mutex<Int>(0)
      let box = CallbackBox()

      init(wokenBy wakeUp: WakeUp = .condition) {
        self.wakeUp = wakeUp
        var ends: [Int32] = [0, 0]
        precondition(pipe(&ends) == 0, "pipe")
        pipeEnds = (ends[0], ends[1])
        Thread { [self] in serve() }.start()
      }

      private func serve() -> Never {
        while true {
          switch wakeUp {
          case .condition:
            condition.lock()
            while requests.withLock({ $0 }) == 0 { condition.wait() }
            requests.withLock { $0 -= 1 }
            condition.unlock()
          case .dispatchSemaphore:
            semaphore.wait()
          case .pipe:
            var byte: UInt8 = 0
            while read(pipeEnds.read, &byte, 1) != 1 {}
          }
          usleep(1_000)
          box.set(9)
        }
      }

      /// Asks for work, as a client of an event loop does, and returns at once.
      func request() {
        switch wakeUp {
        case .condition:
          condition.lock()
          requests.withLock { $0 += 1 }
          condition.signal()
          condition.unlock()
        case .dispatchSemaphore:
          semaphore.signal()
        case .pipe:
          var byte: UInt8 = 1
          _ = write(pipeEnds.write, &byte, 1)
        }
      }
    }

    /// A body that wakes the worker, sleeps 200 ms, and reads what the worker served.
    static func wakesWorkerThenSleeps(_ worker: PreexistingWorker) -> @Sendable () async -> Void {
      {
        worker.box.set(-1)
        worker.request()
        try? await Task.sleep(for: .milliseconds(200))
        TraceRecorder.mark("value: \(worker.box.value.map(String.init) ?? "none")")
      }
    }

    /// Runs 20 schedules of a body that wakes a thread made before the run, and an exhaustive
    /// search of it; prints how many saw the worker's value and what the search claims.
    @available(ExecutorHooks 1.0, *)
    static func printPreexistingWorkerWins(
      wokenBy wakeUp: PreexistingWorker.WakeUp, model: RuntimeModel = .faithful
    ) -> Never {
      let worker = PreexistingWorker(wokenBy: wakeUp)
      let body = wakesWorkerThenSleeps(worker)
      var seen = 0
      for seed in UInt64(1)...20 {
        let result = ControlledExecutor.runBlocking(strategy: SeededRandomStrategy(seed: seed), model: model, body)
        if marks(result) == ["value: 9"] { seen += 1 }
        if seed == 1 { print("outside: \(result.outsideWork)") }
      }
      print("seen \(seen) of 20")
      let exploration = ControlledExecutor.explore(ExhaustiveSearch(delayBound: nil, budget: 50), model: model, body)
      print("ran every schedule: \(exploration.search.ranEverySchedule), exhausted: \(exploration.search.isExhausted)")
      exit(0)
    }

    /// A thread made before the run, woken by the body, serves its request before the body's
    /// 200 ms sleep ends, as on real threads: the wake-up makes virtual time wait for it. The
    /// search that ran it never claims exhaustion, since that thread's timing is real. The worker
    /// waits on a condition, on a `DispatchSemaphore` (still serving the last run's request when
    /// the next run signals it, in a fast run), or in a read of a pipe the body writes to (a
    /// self-pipe event loop, a reader at the other end of a `Pipe`).
    @available(ExecutorHooks 1.0, *)
    @Test(arguments: PreexistingWorker.WakeUp.allCases)
    func aThreadMadeBeforeTheRunAndWokenByItWinsTheSleep(wokenBy wakeUp: PreexistingWorker.WakeUp) async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) { [wakeUp] in
        VirtualTimeAndRealThreadsTests.printPreexistingWorkerWins(wokenBy: wakeUp)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("seen 20 of 20"), "\(output)")
      #expect(output.contains("it woke threads outside the harness"), "\(output)")
      #expect(output.contains("exhausted: false"), "\(output)")
    }

    /// The mutation check: without counting wake-ups, the sleep ends before the worker has
    /// served (in at least one of 20 runs: a loaded machine may deschedule the driver past the
    /// worker's millisecond once), and the search claims exhaustion.
    @available(ExecutorHooks 1.0, *)
    @Test(arguments: PreexistingWorker.WakeUp.allCases)
    func withoutCountingWakeUpsTheSleepOutrunsAThreadMadeBeforeTheRun(
      wokenBy wakeUp: PreexistingWorker.WakeUp
    ) async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) { [wakeUp] in
        VirtualTimeAndRealThreadsTests.printPreexistingWorkerWins(
          wokenBy: wakeUp, model: .faithful { $0.countsOutsideWork = false })
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(!output.contains("seen 20 of 20"), "\(output)")
      #expect(output.contains("exhausted: true"), "\(output)")
    }

    /// A server on a thread made before the run: woken by a request, it arms an idle timer of
    /// its own (a timed wait on its thread, in real time) and closes the connection when no
    /// further request came in time, as an HTTP server's idle timeout does on its event loop.
    final class IdleServer: Sendable {
      private let condition = NSCondition()
      private let requests = Mutex<Int>(0)
      private let state = Mutex<String>("idle")
      private let idle: Double

      init(idleSeconds: Double) {
        idle = idleSeconds
        Thread { [self] in serve() }.start()
      }

      var connection: String { state.withLock { $0 } }

      private func serve() -> Never {
        while true {
          condition.lock()
          while requests.withLock({ $0 }) == 0 { condition.wait() }
          requests.withLock { $0 = 0 }
          state.withLock { $0 = "open" }
          let deadline = Date(timeIntervalSinceNow: idle)
          var again = false
          while !again && condition.wait(until: deadline) { again = requests.withLock { $0 } > 0 }
          condition.unlock()
          if !again { state.withLock { $0 = "closed" } }
        }
      }

      /// Sends a request, as a client of an event loop does, and returns at once.
      func request() {
        condition.lock()
        requests.withLock { $0 += 1 }
        condition.signal()
        condition.unlock()
      }
    }

    /// Runs a body that sends the server a request and then waits longer than the server's idle
    /// timeout (its own, shorter than the run's outside-work timeout lets a jump wait), for 3
    /// seeds; prints what the body saw.
    @available(ExecutorHooks 1.0, *)
    static func printIdleTimeoutRace() -> Never {
      let server = IdleServer(idleSeconds: 0.3)
      for seed in UInt64(1)...3 {
        let result = ControlledExecutor.runBlocking(seed: seed, outsideWorkTimeout: .milliseconds(100)) {
          server.request()
          try? await Task.sleep(for: .seconds(1))  // the client's longer timeout
          TraceRecorder.mark("connection \(server.connection)")
        }
        print("seed \(seed): \(marks(result).joined(separator: ", "))")
      }
      exit(0)
    }

    /// Virtual time never runs past the outside world: once the run woke a thread outside it,
    /// each jump of virtual time is paced by real time, so a server's 300 ms idle timeout closes
    /// the connection before the client's 1 s wait ends, as on real threads, though the run
    /// would let a jump wait only 100 ms for work to come back. (Capped by that timeout, the
    /// client's wait ended first and found the connection open.)
    @available(ExecutorHooks 1.0, *)
    @Test func aServersIdleTimeoutFiresBeforeAClientsLongerWait() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        VirtualTimeAndRealThreadsTests.printIdleTimeoutRace()
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      for seed in 1...3 { #expect(output.contains("seed \(seed): connection closed\n"), "\(output)") }
    }

    /// Foundation's shape of it: a `Pipe` whose reading handle has a `readabilityHandler` (a
    /// Dispatch source, on a Dispatch thread). Writing to the pipe wakes it, and the 200 ms sleep
    /// ends after the handler ran, as on real threads.
    @available(ExecutorHooks 1.0, *)
    @Test func aPipesReadabilityHandlerRunsBeforeTheSleepEnds() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        let pipe = Pipe()
        let box = CallbackBox()
        pipe.fileHandleForReading.readabilityHandler = { handle in
          _ = handle.availableData
          box.set(9)
        }
        var seen = 0
        for seed in UInt64(1)...20 {
          let result = ControlledExecutor.runBlocking(seed: seed) {
            box.set(-1)
            pipe.fileHandleForWriting.write(Data([1]))
            try? await Task.sleep(for: .milliseconds(200))
            TraceRecorder.mark("value: \(box.value.map(String.init) ?? "none")")
          }
          if VirtualTimeAndRealThreadsTests.marks(result) == ["value: 9"] { seen += 1 }
        }
        print("seen \(seen) of 20")
        exit(0)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("seen 20 of 20"), "\(output)")
    }

    /// Pure Swift-concurrency code hands Dispatch nothing: an hour of virtual sleeping takes no
    /// real time.
    @available(ExecutorHooks 1.0, *)
    @Test func pureVirtualTimeStaysInstant() {
      let started = ContinuousClock.now
      for seed in UInt64(1)...20 {
        let result = ControlledExecutor.runBlocking(seed: seed) {
          async let a: Void = { try? await Task.sleep(for: .seconds(3600)) }()
          async let b: Void = { try? await Task.sleep(for: .seconds(1800)) }()
          _ = await (a, b)
        }
        #expect(result.outcome == .completed)
        // Nothing the harness or the runtime does on the run's thread counts as outside work.
        #expect(result.outsideWork.isEmpty, "\(result.outsideWork)")
      }
      // Real time would be 20 hours; any machine does this in far less than ten seconds.
      #expect(started.duration(to: .now) < .seconds(10))
    }

    /// The mutation check: without counting the work handed to Dispatch, the first jump does not
    /// wait, and the sleep ends before the callback has run (as it did before this rule). On a
    /// loaded machine the driver thread can be descheduled past the callback's 1 ms in one run,
    /// so the mutated run is tried 20 times: it must lose the race in at least one.
    @available(ExecutorHooks 1.0, *)
    @Test func withoutCountingDispatchWorkTheSleepOutrunsTheCallback() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        for seed in 1...20 {
          let result = ControlledExecutor.runBlocking(
            strategy: SeededRandomStrategy(seed: UInt64(seed)), model: .faithful { $0.countsOutsideWork = false },
            VirtualTimeAndRealThreadsTests.callbackBeforeSleep)
          print(VirtualTimeAndRealThreadsTests.marks(result))
        }
        exit(0)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("value: none"), "\(output)")
    }
  }
#endif
