#if compiler(>=6.3) && !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
  import AsyncQueue
  import Foundation
  import Testing

  @testable import QueueTesting
  import QueueWorkloads

  /// Reusing child processes: how a worker's event stream and end are split among its tests,
  /// and how the pool hands tests to workers. `.ci/stuck-suite.sh` runs real workers.
  @Suite("Child workers", .timeLimit(.minutes(5)), .hangGuard)
  struct ChildWorkersTests {
    /// A test that ends in a worker is reported while the worker still runs its other tests.
    @Test func aTestIsReportedWhenItEndsNotWhenItsWorkerDoes() async {
      let firstReported = DispatchSemaphore(value: 0)
      // Locks TSan understands (see `LockedState`): the workers' threads write these.
      let sawItInTime = LockedState(false)
      let workers = ChildWorkers(maxWorkers: 1) { batch, whileRunning in
        let tests = batch.map(\.testID)
        if tests.count == 2 {
          whileRunning(Self.stream(started: [tests[0]], ended: [tests[0]]))
          // The worker goes on only once the first test's result has reached its caller. The
          // callers run on a task executor of their own (a Dispatch queue, which can start a
          // thread while the cooperative pool's are all taken: other tests, or threads an earlier
          // test left blocked, may hold a small machine's for seconds), and the wait is long: it
          // ends at once when the result comes, and only a worker that holds results back until
          // it ends waits it out.
          sawItInTime.withLock { $0 = firstReported.wait(timeout: .now() + 60) == .success }
        } else {
          // The two requests did not share a worker: nothing to see here.
          sawItInTime.withLock { $0 = true }
        }
        return (
          Outcome(status: 0, endedBySignal: false, issues: [], standardError: ""),
          Self.stream(started: tests, ended: tests)
        )
      }
      let (firstOutcome, secondOutcome) = await withTaskExecutorPreference(QueueTaskExecutor()) {
        async let first = workers.outcome(of: .init(testID: "first", timeLimit: nil, jobTimeLimit: .seconds(60)))
        async let second = workers.outcome(of: .init(testID: "second", timeLimit: nil, jobTimeLimit: .seconds(60)))
        let firstOutcome = await first
        firstReported.signal()
        let secondOutcome = await second
        firstReported.signal()
        return (firstOutcome, secondOutcome)
      }
      #expect(firstOutcome.status == 0 && secondOutcome.status == 0)
      #expect(sawItInTime.withLock { $0 }, "the first test was reported only when its worker ended")
    }

    typealias Outcome = ChildProcessIsolation.Outcome

    /// An event stream (version 0) in which `started` tests started, `ended` ones ended, and
    /// each test in `failing` recorded one issue.
    static func stream(started: [String], ended: [String], failing: [String] = []) -> Data {
      var lines: [String] = []
      for test in started { lines.append(#"{"kind":"event","payload":{"kind":"testStarted","testID":"\#(test)"}}"#) }
      for test in failing {
        lines.append(
          #"{"kind":"event","payload":{"kind":"issueRecorded","testID":"\#(test)","issue":{"isKnown":false,"sourceLocation":{"fileID":"M/T.swift","_filePath":"/T.swift","line":3,"column":4}},"messages":[{"text":"failed in \#(test)"}]}}"#
        )
      }
      for test in ended { lines.append(#"{"kind":"event","payload":{"kind":"testEnded","testID":"\#(test)"}}"#) }
      // Swift Testing ends each record with a newline.
      return Data(lines.map { $0 + "\n" }.joined().utf8)
    }

    static let crash = Outcome(status: 4, endedBySignal: true, issues: [], standardError: "Fatal error: boom")

    /// Reading a growing stream a piece at a time, complete lines only, gives what reading it
    /// whole gives.
    @Test func aStreamReadAsItGrowsReadsAsAWhole() {
      let whole = Self.stream(started: ["a", "b"], ended: ["a"], failing: ["a", "b"])
      var events = WorkerBatch.Events()
      var read = 0
      for end in stride(from: 0, through: whole.count, by: 37) + [whole.count] {
        guard let lines = WorkerBatch.completeLines(of: whole.prefix(end), after: read) else { continue }
        events.read(lines)
        read += lines.count
      }
      #expect(events == WorkerBatch.events(whole))
      #expect(events.issues["b"]?.count == 1 && events.ended == ["a"])
    }

    /// A worker that ran all its tests: each gets its own issues, none is run again.
    @Test func aWorkerThatFinishedGivesEachTestItsIssues() {
      let batch = WorkerBatch(tests: ["a", "b", "c"])
      let events = WorkerBatch.events(Self.stream(started: ["a", "b", "c"], ended: ["a", "b", "c"], failing: ["b"]))
      let split = batch.split(
        events: events, process: Outcome(status: 1, endedBySignal: false, issues: [], standardError: ""))
      #expect(split.again.isEmpty)
      #expect(split.outcomes["a"] == Outcome(status: 0, endedBySignal: false, issues: [], standardError: ""))
      #expect(split.outcomes["b"]?.issues.map(\.text) == ["failed in b"])
      #expect(split.outcomes["b"]?.status == 0)
    }

    /// A crash is the test that started and did not end: it gets the crash, the tests before it
    /// keep their results, and the tests after it run again.
    @Test func aCrashEndsOnlyItsTestAndTheRestRunAgain() {
      let batch = WorkerBatch(tests: ["a", "b", "c", "d"])
      let events = WorkerBatch.events(Self.stream(started: ["a", "b"], ended: ["a"], failing: ["b"]))
      let split = batch.split(events: events, process: Self.crash)
      #expect(split.outcomes["a"]?.status == 0)
      #expect(split.outcomes["b"]?.status == 4 && split.outcomes["b"]?.endedBySignal == true)
      #expect(split.outcomes["b"]?.standardError == "Fatal error: boom")
      #expect(split.outcomes["b"]?.issues.map(\.text) == ["failed in b"])
      #expect(split.again == ["c", "d"])
    }

    /// A worker that crashed before starting any test would crash again: every test gets it.
    /// One that exited by itself without running a test says so.
    @Test func aWorkerThatRanNothingEndsEveryTest() {
      let batch = WorkerBatch(tests: ["a", "b"])
      let none = batch.split(events: WorkerBatch.events(Data()), process: Self.crash)
      #expect(none.again.isEmpty && none.outcomes.count == 2 && none.outcomes.values.allSatisfy { $0.status == 4 })
      let skipped = batch.split(
        events: WorkerBatch.events(Self.stream(started: ["a"], ended: ["a"])),
        process: Outcome(status: 0, endedBySignal: false, issues: [], standardError: ""))
      #expect(skipped.again.isEmpty)
      #expect(skipped.outcomes["b"]?.status == -2)
      #expect(
        skipped.outcomes["b"]?.standardError.hasPrefix("the child process exited (status 0) without running") == true)
    }

    /// A worker that exited by itself (status 0) in the middle of a test: the code under test
    /// called `exit`. That test is marked as having ended its process, not passed; the tests
    /// after it run again.
    @Test func aWorkerThatExitsDuringATestFailsThatTest() {
      let batch = WorkerBatch(tests: ["a", "b", "c"])
      let split = batch.split(
        events: WorkerBatch.events(Self.stream(started: ["a", "b"], ended: ["a"])),
        process: Outcome(status: 0, endedBySignal: false, issues: [], standardError: "note"))
      #expect(split.outcomes["a"]?.exitedDuringTest == false)
      #expect(split.outcomes["b"]?.exitedDuringTest == true)
      #expect(split.outcomes["b"]?.status == 0)
      #expect(split.again == ["c"])
    }

    /// The parent ended a stuck worker: the running test gets the verdict; between tests, the
    /// ones not started run again.
    @Test func aParentsVerdictGoesToTheRunningTest() {
      let batch = WorkerBatch(tests: ["a", "b"])
      let stopped = Outcome(
        status: 9, endedBySignal: true, issues: [], standardError: "", parentVerdict: .silent(.seconds(11)))
      let split = batch.split(events: WorkerBatch.events(Self.stream(started: ["a"], ended: [])), process: stopped)
      #expect(split.outcomes["a"]?.parentVerdict == .silent(.seconds(11)))
      #expect(split.again == ["b"])
    }

    /// The pool runs every test once, in as many workers as it may run at once; a test whose
    /// worker crashed under it is reported, and the tests its worker never reached go to a new
    /// worker.
    @Test func thePoolReusesWorkersAndRunsTheRestAfterACrash() async {
      let batches = LockedState<[[String]]>([])
      let workers = ChildWorkers(maxWorkers: 2) { batch, whileRunning in
        let tests = batch.map(\.testID)
        batches.withLock { $0.append(tests) }
        // "crash" crashes its worker, after the tests before it ended.
        guard let crash = tests.firstIndex(of: "crash") else {
          let stream = Self.stream(started: tests, ended: tests)
          whileRunning(stream)
          return (Outcome(status: 0, endedBySignal: false, issues: [], standardError: ""), stream)
        }
        let stream = Self.stream(started: Array(tests[...crash]), ended: Array(tests[..<crash]))
        whileRunning(stream)
        return (Self.crash, stream)
      }
      let names = (0..<20).map { "t\($0)" } + ["crash"] + (20..<40).map { "t\($0)" }
      let outcomes = await withTaskGroup(of: (String, Outcome).self) { group in
        for name in names {
          group.addTask {
            (name, await workers.outcome(of: .init(testID: name, timeLimit: nil, jobTimeLimit: .seconds(60))))
          }
        }
        return await group.reduce(into: [String: Outcome]()) { $0[$1.0] = $1.1 }
      }
      #expect(outcomes.count == names.count)
      #expect(outcomes["crash"]?.status == 4)
      #expect(outcomes.filter { $0.key != "crash" }.values.allSatisfy { $0.status == 0 })
      let ran = batches.withLock { $0 }
      // Each test ran to its end once; only the tests after the crash in its batch ran twice.
      let finishedRuns = ran.flatMap { batch in batch.prefix { $0 != "crash" } }
      #expect(Set(finishedRuns) == Set(names).subtracting(["crash"]))
      #expect(ran.count < names.count / 4, "workers were not reused: \(ran.count) for \(names.count) tests")
    }
  }
#endif
