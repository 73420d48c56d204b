#if compiler(>=6.3) && !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
  import AsyncQueue
  import Foundation
  import Testing

  /// Runs a Swift Testing test under ``ControlledSchedulingTrait`` in a child process of the test
  /// binary, so that a test that cannot finish (a deadlock, a spent step budget, a missing
  /// outside wake-up) ends only its child, and every other test of the suite still runs and
  /// reports.
  ///
  /// Why a process: Swift Testing hands the trait the test as a non-escaping closure, and a run
  /// that cannot finish keeps tasks that hold it forever; the closure must not outlive the trait's
  /// scope, and there is no way to abandon a test function. So the parent starts the same test
  /// binary with a filter that selects the tests it hands that child (see ``ChildWorkers``: a child
  /// runs several in turn) and an environment variable that makes the trait run them in place; it
  /// reads the child's event stream (Swift Testing's JSON, version 0) and records each of a
  /// test's issues at its own source location, and says plainly when the child ended without
  /// finishing the test.
  ///
  /// The cases of a parameterized test run together in one child; their issues are recorded on
  /// the case that started it.
  enum ChildProcessIsolation {
    /// Set in a child process; the trait then runs the tests its filter selects in place.
    static let childVariable = "QUEUE_TESTING_CHILD"
    /// `none` turns isolation off: tests under the trait run in the test process itself, which
    /// a test that cannot finish then ends (exit status 86).
    static let isolationVariable = "QUEUE_TESTING_ISOLATION"
    /// Set in the child to the path of the file where its watchdog counts its heartbeat.
    static let heartbeatVariable = "QUEUE_TESTING_HEARTBEAT"

    /// What the child did.
    struct Outcome: Sendable, Equatable {
      /// The child's exit status, or the signal that ended it.
      var status: Int32
      var endedBySignal: Bool
      /// Issues the child recorded (known ones too), in order.
      var issues: [ChildIssue]
      /// The child's standard error, for a child that ended unexpectedly.
      var standardError: String
      /// Why the parent ended the child (`.running`: it did not).
      var parentVerdict = ChildMonitor.Verdict.running
      /// The test cancelled itself (`Test.cancel`): its comment (the text) and place.
      var cancellation: ChildIssue?
      /// Cases of a parameterized test that cancelled themselves, by their name in the event
      /// stream (see ``TestCaseArguments/displayName(of:)``).
      var caseCancellations: [String: ChildIssue] = [:]
      /// The child exited by itself (status 0 or 1) while the test ran: the code under test
      /// called `exit`.
      var exitedDuringTest = false
      /// What the child's running schedule wrote before the child ended in it (see
      /// ``ScheduleOutput``); nil when it ended between tests or wrote nothing.
      var runningOutput: String?
      /// What the schedule the child ran alone spent, when it passed (see ``FreshProcessSeries``).
      var runSpend: RunSpend?

      /// The arguments of every case of the parameterized test `testID` the child said it started,
      /// in order (see ``TestCaseArguments/runningMarker``).
      func startedCases(of testID: String) -> [String] {
        let prefix = TestCaseArguments.runningMarker + testID + "\t"
        return standardError.components(separatedBy: "\n").compactMap { line in
          line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : nil
        }
      }

      /// The arguments of the case of `testID` the child said it was running last; nil when it
      /// named none (the test is not parameterized, or the child ran another test since).
      func runningCase(of testID: String) -> String? {
        let prefix = TestCaseArguments.runningMarker
        guard let last = standardError.components(separatedBy: "\n").last(where: { $0.hasPrefix(prefix) }) else {
          return nil
        }
        let named = last.dropFirst(prefix.count)
        guard named.hasPrefix(testID + "\t") else { return nil }
        return String(named.dropFirst(testID.count + 1))
      }
    }

    struct ChildIssue: Sendable, Equatable {
      var text: String
      var fileID: String
      var filePath: String
      var line: Int
      var column: Int
      /// Recorded inside `withKnownIssue`: it does not fail the test.
      var isKnown = false
      /// The arguments of the parameterized test's case that recorded it (see
      /// ``TestCaseArguments``); nil: no case said so.
      var caseArguments: String?

      /// Where the issue was recorded.
      var sourceLocation: SourceLocation {
        SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
      }
    }

    /// Whether tests under the trait should run in a child process here: not in the child
    /// itself, not when turned off, and only when this process is a test binary that Swift
    /// Testing was asked to run by its command line (as `swift test` does), so that the same
    /// command line can start the child.
    static func applies(environment: [String: String], arguments: [String]) -> Bool {
      guard !runsInPlace, environment[childVariable] == nil, environment[isolationVariable] != "none" else {
        return false
      }
      guard let executable = arguments.first, FileManager.default.isExecutableFile(atPath: executable) else {
        return false
      }
      return arguments.contains("--testing-library")
    }

    /// Whether this process is a child: it runs exactly the tests its filter selects, in place.
    static func isChild(environment: [String: String]) -> Bool {
      // A child is started with a filter for exactly the tests it is to run.
      environment[childVariable] != nil
    }

    static func testID(_ test: Test) -> String {
      String(describing: test.id)
    }

    /// Set by this module's own tests that call the trait's scope directly, to check what the
    /// trait does in place.
    @TaskLocal static var runsInPlace = false

    /// One outcome per test, shared by the test's cases: the first case asks for it.
    private static let children = LockedState<[String: Task<Outcome, Never>]>([:])

    /// Runs `test` in a child process (once for all its cases) and returns what it did, and
    /// whether this caller is the one that started it. Child processes are reused: a worker
    /// runs the tests that wait for one, one after another (see ``ChildWorkers``).
    static func run(_ test: Test) async -> (outcome: Outcome, started: Bool) {
      let id = testID(test)
      let (task, started) = children.withLock { children -> (Task<Outcome, Never>, Bool) in
        if let running = children[id] { return (running, false) }
        let timeLimit = test.timeLimit
        let jobTimeLimit = JobWatchdog.jobTimeLimit(
          testTimeLimit: timeLimit, environment: ProcessInfo.processInfo.environment)
        let task = Task.detached {
          await ChildWorkers.shared.outcome(
            of: ChildWorkers.Request(testID: id, timeLimit: timeLimit, jobTimeLimit: jobTimeLimit))
        }
        children[id] = task
        return (task, true)
      }
      return (await task.value, started)
    }

    /// The arguments of a child: this process's own, less those that choose tests, set
    /// parallelism or write shared reports, plus a filter for exactly each of `testIDs`, one test
    /// at a time (so that a crash or a stuck job is the one test that started and did not end),
    /// and an event stream to `eventsPath`.
    static func childArguments(from arguments: [String], testIDs: [String], eventsPath: String) -> [String] {
      let dropWithValue: Set<String> = [
        "--filter", "--skip", "--xunit-output", "--event-stream-output-path", "--event-stream-version",
        "--experimental-event-stream-output", "--configuration-path", "--repetitions", "--repeat-until",
      ]
      let drop: Set<String> = ["--parallel", "--no-parallel"]
      var kept: [String] = []
      var index = 1
      while index < arguments.count {
        let argument = arguments[index]
        if dropWithValue.contains(argument) {
          index += 2
          continue
        }
        if drop.contains(argument) || dropWithValue.contains(where: { argument.hasPrefix($0 + "=") }) {
          index += 1
          continue
        }
        kept.append(argument)
        index += 1
      }
      let filters = testIDs.flatMap { ["--filter", "^" + NSRegularExpression.escapedPattern(for: $0) + "$"] }
      return kept + filters + [
        "--no-parallel", "--event-stream-output-path", eventsPath, "--event-stream-version", "0",
      ]
    }

    /// How long past a limit the parent waits before it ends the child: the child's own
    /// watchdog, which says which job was stuck, acts at the limit.
    static let timeLimitGrace = Duration.seconds(10)

    /// Runs a child for `testIDs` (one after another) and returns how it ended (its issues left
    /// empty) and its event stream. While it runs, `whileRunning` gets the event stream written
    /// so far whenever it grew (polled every 20 ms), so that each test can be reported as it ends.
    static func spawn(
      testIDs: [String], timeLimit: Duration?, jobTimeLimit: Duration, environment extra: [String: String] = [:],
      whileRunning: (@Sendable (Data) -> Void)? = nil
    ) -> (Outcome, Data) {
      let arguments = CommandLine.arguments
      let stem = "queue-testing-child-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
      let events = FileManager.default.temporaryDirectory.appendingPathComponent(stem + ".jsonl")
      let heartbeat = FileManager.default.temporaryDirectory.appendingPathComponent(stem + ".alive")
      defer {
        try? FileManager.default.removeItem(at: events)
        try? FileManager.default.removeItem(at: heartbeat)
      }
      // Without a heartbeat file (a temporary folder that cannot be written) only the time limit binds.
      let hasHeartbeat = FileManager.default.createFile(atPath: heartbeat.path, contents: nil)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: arguments[0])
      process.arguments = childArguments(from: arguments, testIDs: testIDs, eventsPath: events.path)
      var environment = ProcessInfo.processInfo.environment.merging(extra) { _, new in new }
      environment[childVariable] = "1"
      if let folder = ScheduleOutput.parentFolder { environment[ScheduleOutput.variable] = folder }
      // The child ends itself when this process is gone (see `JobWatchdog`).
      environment[JobWatchdog.parentVariable] = String(ProcessInfo.processInfo.processIdentifier)
      if hasHeartbeat { environment[heartbeatVariable] = heartbeat.path }
      // A crash's message and source line, not a register dump, unless asked for.
      if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
      process.environment = environment
      let output = Pipe()
      let errors = Pipe()
      process.standardOutput = output
      process.standardError = errors
      process.standardInput = FileHandle.nullDevice
      do {
        try process.run()
      } catch {
        return (
          Outcome(
            status: -1, endedBySignal: false, issues: [],
            standardError: "could not start the child process \(arguments[0]): \(error)"), Data()
        )
      }
      // Both pipes are drained while the child runs, so that a talkative child never blocks on
      // a full pipe; the standard output (the child's own progress lines) is not needed.
      let errorText = LockedState(Data())
      let errorsRead = DispatchSemaphore(value: 0)
      Thread {
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        errorText.withLock { $0 = data }
        errorsRead.signal()
      }.start()
      // A child that outlives the test's time limit, or stops showing that it is alive (see
      // `ChildMonitor`), is ended: asked first, then killed (a stopped process heeds only the kill).
      let verdict = LockedState(ChildMonitor.Verdict.running)
      let finished = DispatchSemaphore(value: 0)
      let running = DispatchSemaphore(value: 0)
      let pid = process.processIdentifier
      Thread {
        var monitor = ChildMonitor(
          started: .now, timeLimit: timeLimit, jobTimeLimit: jobTimeLimit, grace: timeLimitGrace,
          heartbeat: hasHeartbeat)
        while finished.wait(timeout: .now() + 0.25) == .timedOut {
          let found = monitor.look(beat: readHeartbeat(at: heartbeat.path), at: .now)
          guard found != .running else { continue }
          verdict.withLock { $0 = found }
          kill(pid, SIGTERM)
          if finished.wait(timeout: .now() + 2) == .timedOut { kill(pid, SIGKILL) }
          return
        }
      }.start()
      let streamWatched = DispatchSemaphore(value: 0)
      if let whileRunning {
        Thread {
          var size = 0
          repeat {
            let data = FileManager.default.contents(atPath: events.path) ?? Data()
            if data.count != size {
              size = data.count
              whileRunning(data)
            }
          } while running.wait(timeout: .now() + 0.02) == .timedOut
          streamWatched.signal()
        }.start()
      } else {
        streamWatched.signal()
      }
      _ = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      finished.signal()
      running.signal()
      streamWatched.wait()
      errorsRead.wait()
      var outcome = Outcome(
        status: process.terminationStatus, endedBySignal: process.terminationReason == .uncaughtSignal,
        issues: [], standardError: String(decoding: errorText.withLock { $0 }, as: UTF8.self),
        parentVerdict: verdict.withLock { $0 })
      // A child that ended inside a schedule wrote its last words (the runtime's crash message,
      // the watchdog's report, an exit's note) where that schedule's output went.
      if let running = ScheduleOutput.takeRunning(pid: pid), !running.isEmpty {
        outcome.runningOutput = running
        outcome.standardError += "\n" + running
      }
      return (outcome, (try? Data(contentsOf: events)) ?? Data())
    }

    /// The child's heartbeat count, nil while it has written none.
    static func readHeartbeat(at path: String) -> UInt64? {
      guard let data = FileManager.default.contents(atPath: path), data.count >= 8 else { return nil }
      return data.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// How Swift Testing's issue for a test past its `.timeLimit` begins.
    static let timeLimitIssuePrefix = "Time limit was exceeded"

    /// The comment and place of a test's cancellation event.
    static func cancellation(in payload: [String: Any]) -> ChildIssue {
      let location = payload["_sourceLocation"] as? [String: Any] ?? [:]
      return ChildIssue(
        text: (payload["_comments"] as? [String] ?? []).joined(separator: "\n"),
        fileID: location["fileID"] as? String ?? "?/?",
        filePath: location["_filePath"] as? String ?? "?",
        line: location["line"] as? Int ?? 1,
        column: location["column"] as? Int ?? 1)
    }

    /// The issue an event's payload records, if it records an error or a known issue (a
    /// warning is the child's own to show).
    static func issue(in payload: [String: Any]) -> ChildIssue? {
      guard payload["kind"] as? String == "issueRecorded",
        let issue = payload["issue"] as? [String: Any]
      else { return nil }
      let isKnown = issue["isKnown"] as? Bool == true
      var messages = (payload["messages"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
      // "Issue recorded" is the headline Swift Testing gives an issue with only a comment;
      // recording it again would repeat it above the comment.
      if messages.count > 1, messages[0] == "Issue recorded" { messages.removeFirst() }
      // The case of a parameterized test that recorded it, which the child tagged (see the trait).
      var caseArguments: String?
      messages = messages.flatMap { message -> [String] in
        var lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let index = lines.lastIndex(where: { $0.hasPrefix(TestCaseArguments.issueTag) }) {
          caseArguments = String(lines[index].dropFirst(TestCaseArguments.issueTag.count))
          lines.remove(at: index)
        }
        return lines.isEmpty ? [] : [lines.joined(separator: "\n")]
      }
      let location = issue["sourceLocation"] as? [String: Any] ?? [:]
      return ChildIssue(
        text: messages.joined(separator: "\n"),
        fileID: location["fileID"] as? String ?? "?/?",
        filePath: location["_filePath"] as? String ?? "?",
        line: location["line"] as? Int ?? 1,
        column: location["column"] as? Int ?? 1,
        isKnown: isKnown, caseArguments: caseArguments)
    }

    /// Records in this process what the child did: each of its issues at its place, and a
    /// plain statement when it ended without finishing.
    ///
    /// `scheduling` (the test's, as the environment adjusts it) and `testID` say how to run the
    /// series to a schedule that crashed.
    ///
    /// For a case of a parameterized test (`arguments`), only the issues the child tagged with
    /// that case are recorded; `recordsWhatNoCaseOwns` (the case that started the child) records
    /// the rest: untagged issues, a crash, a stuck job, a verdict.
    static func record(
      _ outcome: Outcome, testName: String, sourceLocation: SourceLocation, scheduling: ControlledScheduling? = nil,
      testID: String? = nil, arguments: String? = nil, caseName: String? = nil, recordsWhatNoCaseOwns: Bool = true
    ) throws {
      // A case that cancelled itself in the child is cancelled here, with what it said.
      let caseCancellation = caseName.flatMap { outcome.caseCancellations[$0] }
      if let testID, let kept = ScheduleOutput.take(testID: testID, arguments: arguments) {
        ScheduleOutput.show(kept)
      }
      if let testID {
        for warning in ScheduleOutput.takeWarnings(testID: testID, arguments: arguments) {
          Issue.record(Comment(rawValue: warning), severity: .warning, sourceLocation: sourceLocation)
        }
      }
      let owned = outcome.issues.filter { issue in
        issue.caseArguments.map { $0 == arguments } ?? recordsWhatNoCaseOwns
      }
      // A crash, a stuck job or a verdict belongs to the case the child was running, when it said.
      let runningCase = testID.flatMap { outcome.runningCase(of: $0) }
      let ownsTheEnd = runningCase.map { $0 == arguments } ?? recordsWhatNoCaseOwns
      guard ownsTheEnd else {
        try record(issues: owned, cancellation: caseCancellation)
        // A child that ended in another case before this one started never ran this one.
        if let arguments, let testID, let culprit = runningCase, !outcome.startedCases(of: testID).contains(arguments) {
          Issue.record(
            Comment(
              rawValue: """
                \(testName) with the arguments \(arguments) did not run: the child process running the test's \
                cases ended in the case \(culprit) before it reached this one.
                """), sourceLocation: sourceLocation)
        }
        return
      }
      if let running = outcome.runningOutput {
        let notes = [CrashNote.marker, CrashNote.exitMarker, JobWatchdog.reportMarker]
        let lines = running.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
          !notes.contains { line.hasPrefix($0) }
        }
        let text = lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty {
          ScheduleOutput.show("\(testName) printed, during the schedule it did not finish:\n\(text)\n")
        }
      }
      try record(issues: owned, cancellation: caseCancellation ?? outcome.cancellation)
      if outcome.exitedDuringTest {
        var text = "\(testName) ended the process running it: the code under test called exit(\(outcome.status))"
        if let schedule = CrashNote.schedule(in: outcome.standardError), schedule > 0 {
          text += " during controlled schedule \(schedule)"
          text += rerunClause(scheduling: scheduling, testID: testID, arguments: arguments) ?? ""
        }
        text += ". The test did not finish, so it cannot pass; under the trait it ran in a child process, and"
        text += " the rest of the suite ran on."
        Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
        return
      }
      switch outcome.parentVerdict {
      case .running:
        break
      case .exceededTimeLimit(let limit):
        Issue.record(
          Comment(
            rawValue: """
              \(testName) did not finish within its time limit (\(limit)): the child process running it was ended \
              (the rest of the suite ran on).
              """), sourceLocation: sourceLocation)
        return
      case .silent(let silence):
        Issue.record(
          Comment(
            rawValue: """
              \(testName) stopped responding: the child process running it showed no sign of life for \
              \(silence.components.seconds) s (its watchdog, which ends a job that runs too long, was not running: \
              the process was stopped or wedged), so it was ended (the rest of the suite ran on).
              """), sourceLocation: sourceLocation)
        return
      }
      switch (outcome.status, outcome.endedBySignal) {
      case (0, false):
        return
      case (JobWatchdog.stuckJobExitStatus, false):
        let report = outcome.standardError.split(separator: "\n").first { $0.hasPrefix(JobWatchdog.reportMarker) }
        Issue.record(
          Comment(
            rawValue: report.map { String($0.dropFirst(JobWatchdog.reportMarker.count)) }
              ?? "\(testName) is stuck: one of its jobs did not return, and the child process running it was ended."),
          sourceLocation: sourceLocation)
      case (1, false) where !outcome.issues.isEmpty:
        // An ordinary failure: its issues say it all.
        return
      case (ControlledSchedulingTrait.abandonedTestExitStatus, false):
        var text = "\(testName) did not finish: a schedule left its body unable to finish, so the child process that"
        text += " ran its schedules was ended (the rest of the suite ran on)."
        if !outcome.issues.contains(where: { $0.text.contains("Controlled schedule") }) {
          // The child ended before its issue reached the event stream: its report is on stderr.
          text += "\n" + outcome.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
      default:
        Issue.record(
          Comment(
            rawValue: crashText(
              outcome, testName: testName, scheduling: scheduling, testID: testID, arguments: arguments)),
          sourceLocation: sourceLocation)
      }
    }

    /// Records the child's `issues` here (known ones as known), then its cancellation.
    private static func record(issues: [ChildIssue], cancellation: ChildIssue?) throws {
      // The test's time limit binds here too, and Swift Testing records its overrun here: the
      // child's record of the same overrun would count it twice.
      for issue in issues where !issue.text.hasPrefix(timeLimitIssuePrefix) {
        if issue.isKnown {
          // Known in the child, known here: the test passes "with 1 known issue", as in place.
          withKnownIssue {
            Issue.record(Comment(rawValue: issue.text), sourceLocation: issue.sourceLocation)
          }
        } else {
          Issue.record(Comment(rawValue: issue.text), sourceLocation: issue.sourceLocation)
        }
      }
      if let cancellation {
        try Test.cancel(
          cancellation.text.isEmpty ? nil : Comment(rawValue: cancellation.text),
          sourceLocation: cancellation.sourceLocation)
      }
    }

    /// " (series); to run the series to that schedule again: LINE", for a report that named the
    /// schedule a child ended in; nil when the series or the test is not known.
    static func rerunClause(scheduling: ControlledScheduling?, testID: String?, arguments: String?) -> String? {
      guard let scheduling, let testID else { return nil }
      return " (\(scheduling.series)); to run the series to that schedule again: "
        + scheduling.rerunLine(testID: testID, arguments: arguments)
    }

    /// What a person needs of a child that crashed or exited unexpectedly: the runtime's own
    /// message with its source location (`File.swift:12: Fatal error: …`), "out of memory" when
    /// that is what ended it, and otherwise the end of its standard error.
    ///
    /// When the child noted which controlled schedule was running (see ``CrashNote``), the text
    /// names it and gives the line that runs the series to it again.
    static func crashText(
      _ outcome: Outcome, testName: String, scheduling: ControlledScheduling? = nil, testID: String? = nil,
      arguments: String? = nil
    ) -> String {
      let how =
        outcome.endedBySignal ? "was ended by signal \(outcome.status)" : "exited with status \(outcome.status)"
      let lines = outcome.standardError.split(separator: "\n").map(String.init).filter {
        !$0.hasPrefix(CrashNote.marker)
      }
      let fatal = lines.filter { line in
        ["Fatal error", "Precondition failed", "Assertion failed", "Unexpectedly found nil", "Illegal instruction"]
          .contains { line.contains($0) }
      }
      let memory = lines.filter { line in
        let lower = line.lowercased()
        return lower.contains("out of memory") || lower.contains("cannot allocate") || lower.contains("bad_alloc")
          || lower.contains("failed to allocate")
      }
      var text = "\(testName) crashed: the child process running it \(how)."
      if let schedule = CrashNote.schedule(in: outcome.standardError), schedule > 0 {
        text += " It crashed during controlled schedule \(schedule)"
        text += rerunClause(scheduling: scheduling, testID: testID, arguments: arguments) ?? "."
      }
      if !fatal.isEmpty {
        text += "\n" + fatal.prefix(5).joined(separator: "\n")
      } else if !memory.isEmpty || (outcome.endedBySignal && outcome.status == SIGKILL) {
        text += " It ran out of memory" + (memory.isEmpty ? " (or something killed it)" : "") + "."
        if !memory.isEmpty { text += "\n" + memory.prefix(3).joined(separator: "\n") }
      } else {
        text += "\n" + lines.suffix(15).joined(separator: "\n")
      }
      return text
    }
  }
#elseif compiler(>=6.3)
  /// Where a test process cannot start a child (iOS, tvOS, watchOS, visionOS), tests under the
  /// trait always run in place; this is the one switch the tests of the trait set.
  enum ChildProcessIsolation {
    /// Kept for the trait's tests, which ask for the in-place run explicitly.
    @TaskLocal static var runsInPlace = false
  }
#endif
