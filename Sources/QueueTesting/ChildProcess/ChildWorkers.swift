#if compiler(>=6.3) && !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
  import AsyncQueue
  import Foundation

  /// The child processes that run controlled tests for this test process, reused across tests.
  ///
  /// Starting a child costs tens of milliseconds (loading the test binary, Swift Testing finding
  /// its tests), far more than a small controlled test. So a child is a *worker*: it is started
  /// with a filter for every test waiting at that moment (its share of them, when several
  /// workers can run) and runs them one after another. Up to one worker per processor runs at
  /// once; tests that arrive while all are busy wait for the next one. A test that crashes its
  /// worker or gets stuck in it ends that worker only: it gets the worker's report, the tests
  /// before it keep their results, and the ones after it go to a new worker (see
  /// ``WorkerBatch``). Each worker keeps every guarantee a child had: its own watchdog, its
  /// heartbeat, and its end when this process is gone.
  final class ChildWorkers: Sendable {
    static let shared = ChildWorkers(maxWorkers: max(ProcessInfo.processInfo.activeProcessorCount, 1))

    /// A test waiting for a worker.
    struct Request: Sendable {
      let testID: String
      let timeLimit: Duration?
      let jobTimeLimit: Duration
    }

    private struct Waiting {
      let request: Request
      let done: CheckedContinuation<ChildProcessIsolation.Outcome, Never>
    }

    private struct State {
      var waiting: [Waiting] = []
      /// Workers started (gathering their tests, or running them).
      var started = 0
      /// Workers that hold their tests.
      var busy = 0
      /// Whether a worker of this process has taken its tests: until then, workers gather first.
      var tookBefore = false
    }

    /// How long the first worker of the process waits before it takes its tests: a suite's tests
    /// arrive together, and this lets them share workers from the start.
    static let firstGathering = Duration.milliseconds(15)

    private let maxWorkers: Int
    private let state = LockedState(State())
    /// Runs a batch in a child, passing the event stream so far to its second argument while the
    /// child runs, and returns how the child ended and its event stream; a test of the pool
    /// passes its own.
    typealias BatchRunner =
      @Sendable (_ batch: [Request], _ whileRunning: @escaping @Sendable (Data) -> Void) -> (
        ChildProcessIsolation.Outcome, Data
      )
    private let runBatch: BatchRunner

    init(maxWorkers: Int, runBatch: @escaping BatchRunner = ChildWorkers.spawn) {
      self.maxWorkers = maxWorkers
      self.runBatch = runBatch
    }

    /// What the worker that ran the test did with it.
    func outcome(of request: Request) async -> ChildProcessIsolation.Outcome {
      await withCheckedContinuation { (done: CheckedContinuation<ChildProcessIsolation.Outcome, Never>) in
        state.withLock { $0.waiting.append(Waiting(request: request, done: done)) }
        startWorkers()
      }
    }

    /// Starts workers while some are free and tests wait, one thread each (waiting for a child
    /// blocks a thread: one of its own, not one of the pool's).
    private func startWorkers() {
      while let gathers = startWorker() {
        Thread {
          if gathers { Thread.sleep(forTimeInterval: Double(Self.firstGathering.components.attoseconds) / 1e18) }
          guard let batch = self.takeBatch() else { return }
          self.run(batch)
        }.start()
      }
    }

    /// Counts a new worker if one may start (and says whether it gathers first: no worker of the
    /// process has taken its tests yet); nil if none may.
    private func startWorker() -> Bool? {
      state.withLock { state in
        guard state.waiting.count > state.started - state.busy, state.started < maxWorkers else { return nil }
        state.started += 1
        return !state.tookBefore
      }
    }

    /// The started worker's tests: its share of the waiting ones (the rest, when no other worker
    /// is still to take its own), in the order they came; nil, ending the worker, when none wait.
    private func takeBatch() -> [Waiting]? {
      state.withLock { state in
        guard !state.waiting.isEmpty else {
          state.started -= 1
          return nil
        }
        let taking = state.started - state.busy
        let share = (state.waiting.count + taking - 1) / taking
        let batch = Array(state.waiting.prefix(share))
        state.waiting.removeFirst(batch.count)
        state.busy += 1
        state.tookBefore = true
        return batch
      }
    }

    private func run(_ batch: [Waiting]) {
      // Each test that ends is reported at once, so that its time and result read as its own.
      let reported = LockedState(Set<String>())
      // What the stream said so far, and how many of its bytes were read: each look reads only
      // the lines added since the last.
      let seen = LockedState((read: 0, events: WorkerBatch.Events()))
      let (process, events) = runBatch(batch.map(\.request)) { soFar in
        let events = seen.withLock { seen in
          if let lines = WorkerBatch.completeLines(of: soFar, after: seen.read) {
            seen.events.read(lines)
            seen.read += lines.count
          }
          return seen.events
        }
        for waiting in batch where events.ended.contains(waiting.request.testID) {
          let test = waiting.request.testID
          guard reported.withLock({ $0.insert(test).inserted }) else { continue }
          waiting.done.resume(
            returning: ChildProcessIsolation.Outcome(
              status: 0, endedBySignal: false, issues: events.issues[test] ?? [], standardError: "",
              cancellation: events.cancellations[test], caseCancellations: events.caseCancellations[test] ?? [:]))
        }
      }
      let split = WorkerBatch(tests: batch.map(\.request.testID)).split(
        events: WorkerBatch.events(events), process: process)
      var again: [Waiting] = []
      for waiting in batch where !reported.withLock({ $0.contains(waiting.request.testID) }) {
        if var outcome = split.outcomes[waiting.request.testID] {
          // The parent's backstop limit was the batch's; the test's own is the one to name.
          if case .exceededTimeLimit = outcome.parentVerdict, let limit = waiting.request.timeLimit {
            outcome.parentVerdict = .exceededTimeLimit(limit)
          }
          waiting.done.resume(returning: outcome)
        } else {
          again.append(waiting)
        }
      }
      state.withLock { state in
        // Tests the worker never reached go first: they waited longest.
        state.waiting.insert(contentsOf: again, at: 0)
        state.busy -= 1
        state.started -= 1
      }
      startWorkers()
    }

    /// Starts a child for the batch. Its limits: the sum of the tests' time limits when every
    /// test has one (the parent's backstop; each test's own limit binds in the child), and the
    /// longest limit for one job.
    private static func spawn(
      _ batch: [Request], whileRunning: @escaping @Sendable (Data) -> Void
    ) -> (ChildProcessIsolation.Outcome, Data) {
      let limits = batch.compactMap(\.timeLimit)
      let timeLimit = limits.count == batch.count ? limits.reduce(Duration.zero, +) : nil
      let jobTimeLimit = batch.map(\.jobTimeLimit).max() ?? JobWatchdog.defaultJobTimeLimit
      return ChildProcessIsolation.spawn(
        testIDs: batch.map(\.testID), timeLimit: timeLimit, jobTimeLimit: jobTimeLimit, whileRunning: whileRunning)
    }
  }
#endif
