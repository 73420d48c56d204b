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
