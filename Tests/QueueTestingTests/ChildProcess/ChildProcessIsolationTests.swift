#if compiler(>=6.3) && !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
  import Foundation
  import Testing

  @testable import QueueTesting
  @testable import QueueTestingEngine
  import QueueWorkloads

  /// The pure parts of running a controlled test in a child process; `.ci/stuck-suite.sh` runs
  /// the whole of it from a user's package.
  @Suite("Child process isolation", .timeLimit(.minutes(5)), .hangGuard)
  struct ChildProcessIsolationTests {
    /// Under `swift test`, a test under the trait runs its body in a child process of the test
    /// binary (unless isolation is turned off), so that a body that cannot finish ends only that
    /// child.
    @Test(
      .controlledScheduling(.random(2, seed: 1)),
      .enabled(if: ProcessInfo.processInfo.environment[ChildProcessIsolation.isolationVariable] != "none"))
    func theTraitRunsTheBodyInAChildProcess() {
      #expect(ProcessInfo.processInfo.environment[ChildProcessIsolation.childVariable] == "1")
    }

    /// The watchdog of a child ends it, with its report and the stuck-job status, when one job
    /// runs past the limit: here a job that spins for 5 s under a limit of 300 ms. (Without the
    /// watchdog the job would return after its 5 s and the process exit with 0.)
    @available(ExecutorHooks 1.0, *)
    @Test func theWatchdogEndsAJobPastItsLimit() async throws {
      let child = try await #require(
        processExitsWith: .exitCode(JobWatchdog.stuckJobExitStatus), observing: [\.standardErrorContent]
      ) {
        JobWatchdog.start(limit: .milliseconds(300), parent: nil, heartbeat: nil) { task, step, _ in
          "the job of task \(task) at step \(step) spins"
        }
        _ = ControlledExecutor.runBlocking(seed: 1, jobTimeLimit: nil) {
          let end = Date().addingTimeInterval(5)
          while Date() < end {}
        }
        exit(0)
      }
      let stderr = String(decoding: child.standardErrorContent, as: UTF8.self)
      #expect(stderr.contains(JobWatchdog.reportMarker + "the job of task 1 at step 1 spins"), "\(stderr)")
    }

    @Test func childArgumentsSelectExactlyTheTestsAndWriteNoSharedReport() {
      let arguments = [
        "/x/PackageTests.xctest", "--skip-build", "--filter", "stuck", "--parallel", "--xunit-output", "out.xml",
        "--skip=slow", "--attachments-path", "/tmp/a", "--testing-library", "swift-testing",
        "--event-stream-output-path", "e.json",
      ]
      let child = ChildProcessIsolation.childArguments(
        from: arguments, testIDs: ["M.S/f(_:)/F.swift:3:4", "M.g()/G.swift:1:2"], eventsPath: "/tmp/events.jsonl")
      #expect(
        child == [
          "--skip-build", "--attachments-path", "/tmp/a", "--testing-library", "swift-testing",
          "--filter", #"^M\.S\/f\(_:\)\/F\.swift:3:4$"#, "--filter", #"^M\.g\(\)\/G\.swift:1:2$"#, "--no-parallel",
          "--event-stream-output-path", "/tmp/events.jsonl", "--event-stream-version", "0",
        ])
    }

    @Test func isolationAppliesOnlyToAParentStartedForSwiftTesting() {
      let executable = CommandLine.arguments[0]
      let arguments = [executable, "--testing-library", "swift-testing"]
      #expect(ChildProcessIsolation.applies(environment: [:], arguments: arguments))
      #expect(!ChildProcessIsolation.applies(environment: ["QUEUE_TESTING_CHILD": "M.t()"], arguments: arguments))
      #expect(!ChildProcessIsolation.applies(environment: ["QUEUE_TESTING_ISOLATION": "none"], arguments: arguments))
      #expect(!ChildProcessIsolation.applies(environment: [:], arguments: [executable]))
      #expect(!ChildProcessIsolation.applies(environment: [:], arguments: ["/no/such/binary", "--testing-library"]))
    }

    @Test func eventStreamIssuesAreReadWithTheirPlaces() {
      let stream = """
        {"kind":"test","payload":{"id":"M.t()"},"version":0}
        {"kind":"event","payload":{"issue":{"isKnown":false,"sourceLocation":{"_filePath":"/p/T.swift","column":24,"fileID":"M/T.swift","line":15}},"kind":"issueRecorded","messages":[{"symbol":"fail","text":"Expectation failed: 1 == 2"},{"symbol":"details","text":"one is not two"}],"testID":"M.t()"},"version":0}
        {"kind":"event","payload":{"issue":{"isKnown":true,"sourceLocation":{"_filePath":"/p/T.swift","column":1,"fileID":"M/T.swift","line":20}},"kind":"issueRecorded","messages":[{"symbol":"fail","text":"known"}],"testID":"M.t()"},"version":0}
        {"kind":"event","payload":{"issue":{"isKnown":false,"sourceLocation":{"_filePath":"/p/T.swift","column":2,"fileID":"M/T.swift","line":9}},"kind":"issueRecorded","messages":[{"symbol":"fail","text":"Issue recorded"},{"symbol":"details","text":"Controlled schedule 1 failed"}],"testID":"M.t()"},"version":0}
        {"kind":"event","payload":{"_comments":["not today"],"_sourceLocation":{"_filePath":"/p/T.swift","column":40,"fileID":"M/T.swift","line":30},"kind":"testCancelled","messages":[],"testID":"M.c()"},"version":0}
        {"kind":"event","payload":{"_comments":["two is not supported"],"_sourceLocation":{"_filePath":"/p/T.swift","column":9,"fileID":"M/T.swift","line":40},"_testCase":{"displayName":"2","id":"x"},"kind":"testCaseCancelled","messages":[],"testID":"M.p(value:)"},"version":0}
        not json
        """
      let events = WorkerBatch.events(Data(stream.utf8))
      #expect(
        events.issues["M.t()"] == [
          .init(
            text: "Expectation failed: 1 == 2\none is not two", fileID: "M/T.swift", filePath: "/p/T.swift", line: 15,
            column: 24),
          .init(text: "known", fileID: "M/T.swift", filePath: "/p/T.swift", line: 20, column: 1, isKnown: true),
          .init(text: "Controlled schedule 1 failed", fileID: "M/T.swift", filePath: "/p/T.swift", line: 9, column: 2),
        ])
      // A test that cancelled itself: its comment and place, for the parent to cancel it too.
      #expect(
        events.cancellations["M.c()"]
          == .init(text: "not today", fileID: "M/T.swift", filePath: "/p/T.swift", line: 30, column: 40))
      #expect(events.cancellations["M.t()"] == nil)
      // A case that cancelled itself, by its name in the stream; the test itself was not cancelled.
      #expect(
        events.caseCancellations["M.p(value:)"]?["2"]
          == .init(text: "two is not supported", fileID: "M/T.swift", filePath: "/p/T.swift", line: 40, column: 9))
      #expect(events.cancellations["M.p(value:)"] == nil)
    }

    /// The cases of a parameterized test share one child: each case records the issues the child
    /// tagged with its arguments; a crash goes to the case that was running; a case the crashed
    /// child never reached says it did not run.
    @Test func eachCaseRecordsItsOwnIssuesAndACrashGoesToItsCase() async throws {
      let location = SourceLocation(fileID: "M/T.swift", filePath: "/p/T.swift", line: 3, column: 2)
      let crashed = ChildProcessIsolation.Outcome(
        status: 4, endedBySignal: true,
        issues: [
          .init(
            text: "failed in 10", fileID: "M/T.swift", filePath: "/p/T.swift", line: 5, column: 1,
            caseArguments: "value: 10"),
          .init(
            text: "failed in 20", fileID: "M/T.swift", filePath: "/p/T.swift", line: 5, column: 1,
            caseArguments: "value: 20"),
        ],
        standardError:
          "\nQueueTesting running case: M.t(value:)\tvalue: 10\n\nQueueTesting running case: M.t(value:)\tvalue: 20\n"
          + "T.swift:9: Fatal error: boom")
      func recorded(_ arguments: String, starter: Bool) async throws -> [String] {
        try await capturingIssues {
          try ChildProcessIsolation.record(
            crashed, testName: "t(value:)", sourceLocation: location, testID: "M.t(value:)", arguments: arguments,
            recordsWhatNoCaseOwns: starter)
        }.map(\.text)
      }
      let ten = try await recorded("value: 10", starter: true)
      #expect(ten.count == 1 && ten[0].contains("failed in 10"), "\(ten)")
      let twenty = try await recorded("value: 20", starter: false)
      #expect(twenty.count == 2, "\(twenty)")
      #expect(twenty.first?.contains("failed in 20") == true)
      #expect(twenty.last?.contains("t(value:) crashed") == true && twenty.last?.contains("Fatal error: boom") == true)
      let thirty = try await recorded("value: 30", starter: false)
      #expect(thirty.count == 1, "\(thirty)")
      #expect(thirty.first?.contains("with the arguments value: 30 did not run") == true, "\(thirty)")
      // A test that is not parameterized, run by the same child after those cases, owns its own end:
      // the cases' notes are another test's.
      let exited = ChildProcessIsolation.Outcome(
        status: crashed.status, endedBySignal: true, issues: [], standardError: crashed.standardError)
      let other = try await capturingIssues {
        try ChildProcessIsolation.record(exited, testName: "other()", sourceLocation: location, testID: "M.other()")
      }.map(\.text)
      #expect(other.count == 1 && other.first?.contains("other() crashed") == true, "\(other)")
    }

    /// A crashed child's report is the runtime's message with its line, not a register dump;
    /// running out of memory says so; anything else keeps the end of the child's output.
    @Test func crashTextKeepsTheMessageAndItsLine() {
      let fatal = ChildProcessIsolation.Outcome(
        status: 4, endedBySignal: true, issues: [],
        standardError: "noise\nApp/Catalog.swift:39: Fatal error: the catalog is corrupt\n💣 Program crashed\nrax 0x0")
      #expect(
        ChildProcessIsolation.crashText(fatal, testName: "load()")
          == "load() crashed: the child process running it was ended by signal 4.\n"
          + "App/Catalog.swift:39: Fatal error: the catalog is corrupt")
      let memory = ChildProcessIsolation.Outcome(
        status: 6, endedBySignal: true, issues: [], standardError: "fatal: failed to allocate 1073741824 bytes")
      #expect(ChildProcessIsolation.crashText(memory, testName: "big()").contains("It ran out of memory."))
      let killed = ChildProcessIsolation.Outcome(status: SIGKILL, endedBySignal: true, issues: [], standardError: "")
      #expect(
        ChildProcessIsolation.crashText(killed, testName: "big()").contains(
          "ran out of memory (or something killed it)"))
      let other = ChildProcessIsolation.Outcome(status: 3, endedBySignal: false, issues: [], standardError: "a\nb")
      #expect(
        ChildProcessIsolation.crashText(other, testName: "t()")
          == "t() crashed: the child process running it exited with status 3.\na\nb")
    }

    /// The job limit: the test's own time limit first, then the variable, then the default.
    @Test func jobTimeLimitPrefersTheTestsTimeLimit() {
      let variable = JobWatchdog.jobTimeLimitVariable
      #expect(JobWatchdog.jobTimeLimit(testTimeLimit: .seconds(120), environment: [variable: "5"]) == .seconds(120))
      #expect(JobWatchdog.jobTimeLimit(testTimeLimit: nil, environment: [variable: "2.5"]) == .milliseconds(2_500))
      #expect(
        JobWatchdog.jobTimeLimit(testTimeLimit: nil, environment: [variable: "never"])
          == JobWatchdog.defaultJobTimeLimit)
      #expect(JobWatchdog.jobTimeLimit(testTimeLimit: nil, environment: [:]) == .seconds(60))
    }

    /// The parent's two bounds, looked at every quarter second: a child that beats goes on past
    /// the silence limit, one that stops beating (or never starts) is ended once the silence
    /// reaches the job limit plus the grace, and the time limit binds however alive the child is.
    @Test func theParentEndsASilentChildAndOneOverItsTimeLimit() {
      struct Ending: Equatable {
        var look: Int
        var verdict: ChildMonitor.Verdict
        init(_ look: Int, _ verdict: ChildMonitor.Verdict) { (self.look, self.verdict) = (look, verdict) }
      }
      let start = ContinuousClock.now
      func watch(
        beats: (Int) -> UInt64?, timeLimit: Duration? = nil, heartbeat: Bool = true, looks: Int = 400
      ) -> Ending? {
        var monitor = ChildMonitor(
          started: start, timeLimit: timeLimit, jobTimeLimit: .seconds(5), grace: .seconds(10), heartbeat: heartbeat)
        for look in 1...looks {
          let verdict = monitor.look(beat: beats(look), at: start + .milliseconds(250 * look))
          if verdict != .running { return Ending(look, verdict) }
        }
        return nil
      }
      // Beating all along: 100 s, far past the 15 s silence limit.
      #expect(watch(beats: { UInt64($0) }) == nil)
      // Never beats: ended at 15 s.
      #expect(watch(beats: { _ in nil }) == Ending(60, .silent(.seconds(15))))
      // Beats until 20 s (look 80), then stops: ended 15 s after the last change.
      #expect(watch(beats: { UInt64(min($0, 80)) }) == Ending(140, .silent(.seconds(15))))
      // A heartbeat that stays the same is silence too (from its first sight, at 0.25 s).
      #expect(watch(beats: { _ in 7 }) == Ending(61, .silent(.seconds(15))))
      // The time limit (30 s + 10 s grace) ends a beating child.
      #expect(watch(beats: { UInt64($0) }, timeLimit: .seconds(30)) == Ending(160, .exceededTimeLimit(.seconds(30))))
      // No heartbeat file: only the time limit binds, and without one nothing does.
      #expect(watch(beats: { _ in nil }, heartbeat: false) == nil)
      #expect(
        watch(beats: { _ in nil }, timeLimit: .seconds(30), heartbeat: false)
          == Ending(160, .exceededTimeLimit(.seconds(30))))
    }

    @Test func theHeartbeatIsReadAsTheChildWritesIt() throws {
      let path = FileManager.default.temporaryDirectory.appendingPathComponent("heartbeat-\(UUID().uuidString)").path
      defer { try? FileManager.default.removeItem(atPath: path) }
      #expect(ChildProcessIsolation.readHeartbeat(at: path) == nil)
      #expect(FileManager.default.createFile(atPath: path, contents: nil))
      #expect(ChildProcessIsolation.readHeartbeat(at: path) == nil)
      let file = open(path, O_WRONLY)
      try #require(file >= 0)
      defer { close(file) }
      for beat: UInt64 in [1, 2, 0x0102_0304_0506_0708] {
        var bytes = beat.bigEndian
        #expect(withUnsafeBytes(of: &bytes) { pwrite(file, $0.baseAddress, 8, 0) } == 8)
        #expect(ChildProcessIsolation.readHeartbeat(at: path) == beat)
      }
    }
  }
#endif
