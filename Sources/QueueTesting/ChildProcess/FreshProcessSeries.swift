#if compiler(>=6.3) && !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
  import Foundation

  /// Tells a test that keeps state between runs from a bug, in the parent process.
  ///
  /// A test under the trait runs its body once per schedule, all in one process. A body that
  /// leaves state behind (a `static` flag, a singleton, a cache) can fail on schedule 2 because
  /// schedule 1 ran before it, though its code has no bug: the failure is the test's, not the
  /// code's. So when a series fails on a schedule after the first, the parent replays that
  /// schedule alone in a fresh process. If it fails there too, the failure stands. If it passes,
  /// the test keeps state between runs: the parent says so plainly and runs the test's series
  /// again with a fresh process per schedule, where every schedule starts from a process that has
  /// run nothing, and records what that series finds (a bug that fails there fails the test).
  ///
  /// ``ControlledScheduling/freshProcessVariable`` forces either mode. Only random, PCT and
  /// portfolio series run a schedule alone (an exhaustive search's schedules follow from the runs
  /// before them); a parameterized test's cases share their child process, and are not checked.
  enum FreshProcessSeries {
    /// Set in a child that runs one schedule of its test's series alone: the schedule's index.
    static let scheduleIndexVariable = ControlledScheduling.scheduleIndexVariable

    /// When to run a test's schedules in fresh processes.
    enum Mode: String, Sendable {
      /// When a schedule after the first fails, and fails no more alone in a fresh process.
      case auto
      /// Always: every schedule in a process of its own (for a suite known to keep state).
      case always
      /// Never: a failure stands as the series found it.
      case never

      /// The mode the environment asks for; `auto` when it asks for none.
      static func from(environment: [String: String]) throws(ControlledSchedulingError) -> Mode {
        guard let text = environment[ControlledScheduling.freshProcessVariable] else { return .auto }
        guard let mode = Mode(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()) else {
          throw ControlledSchedulingError(
            message: "\(ControlledScheduling.freshProcessVariable)=\(text): expected auto, always or never")
        }
        return mode
      }
    }

    /// The number of the schedule a child's failure names ("During controlled schedule 2 …",
    /// "Controlled schedule 2 failed …"), from its first issue that names one.
    static func failingScheduleNumber(in issues: [ChildProcessIsolation.ChildIssue]) -> Int? {
      for issue in issues where !issue.isKnown {
        guard let range = issue.text.range(of: #"[Cc]ontrolled schedule [0-9]+"#, options: .regularExpression)
        else { continue }
        return Int(issue.text[range].split(separator: " ").last ?? "")
      }
      return nil
    }

    /// The environment that replays the failing schedule alone, from the replay line of a child's
    /// failure: `QUEUE_TESTING_SCHEDULE='…'` or `QUEUE_TESTING_SCHEDULE_FILE='…'`.
    static func replayEnvironment(in issues: [ChildProcessIsolation.ChildIssue]) -> [String: String]? {
      for issue in issues where !issue.isKnown {
        for variable in [ControlledScheduling.scheduleFileVariable, ControlledScheduling.scheduleVariable] {
          guard let start = issue.text.range(of: "Replay it alone: \(variable)='") else { continue }
          let rest = issue.text[start.upperBound...]
          guard let end = rest.firstIndex(of: "'") else { continue }
          return [variable: String(rest[..<end])]
        }
      }
      return nil
    }

    /// What the parent records for a test whose child ended with `outcome`: the outcome itself, or
    /// what a fresh process per schedule found, with a note that says why.
    ///
    /// `spawn` runs the test alone in a fresh child with the extra environment it is given.
    /// `budget` (the series', when it has one) stops the fresh processes as it stops a series in
    /// one process, from what each child's schedule spent.
    static func settle(
      _ outcome: ChildProcessIsolation.Outcome, series: ScheduleSeries, budget: ScheduleBudget? = nil, mode: Mode,
      testName: String,
      spawn: (_ environment: [String: String]) -> ChildProcessIsolation.Outcome
    ) -> (outcome: ChildProcessIsolation.Outcome, note: String?) {
      guard series.isSeeded else { return (outcome, nil) }
      switch mode {
      case .never:
        return (outcome, nil)
      case .always:
        return eachScheduleAlone(series: series, budget: budget, testName: testName, reason: nil, spawn: spawn)
      case .auto:
        guard outcome.parentVerdict == .running, !outcome.endedBySignal, !outcome.exitedDuringTest,
          let number = failingScheduleNumber(in: outcome.issues), number > 1,
          let replay = replayEnvironment(in: outcome.issues)
        else { return (outcome, nil) }
        let alone = spawn(replay)
        guard passed(alone) else { return (outcome, nil) }
        let reason = """
          \(testName) keeps state between runs: controlled schedule \(number) failed after the schedules before it \
          ran in the same process, and alone, in a fresh process, it passes. Statics, singletons or caches the test \
          touches carry over from one run of its body to the next; that failure was not a bug of the code under test.
          """
        return eachScheduleAlone(series: series, budget: budget, testName: testName, reason: reason, spawn: spawn)
      }
    }

    /// Runs every schedule of `series` in a fresh process, stopping at the first that fails, or
    /// where `budget` stops the series (each child says what its schedule spent).
    private static func eachScheduleAlone(
      series: ScheduleSeries, budget: ScheduleBudget?, testName: String, reason: String?,
      spawn: (_ environment: [String: String]) -> ChildProcessIsolation.Outcome
    ) -> (outcome: ChildProcessIsolation.Outcome, note: String?) {
      let lead = reason.map { $0 + " " } ?? ""
      var spending = budget.map(ScheduleBudgetSpending.init)
      var coverage = TraceCoverage()
      let started = ContinuousClock.now
      for index in 0..<series.count {
        let outcome = spawn([scheduleIndexVariable: String(index)])
        if !passed(outcome) {
          return (
            outcome,
            lead + """
              With a fresh process per schedule (\(series)), schedule \(index + 1) fails on its own: that failure \
              follows, and it replays alone as its replay line says.
              """
          )
        }
        guard var budgetSpending = spending, let spend = outcome.runSpend else { continue }
        coverage.record(spend.traceHash)
        let stop = budgetSpending.record(
          spend, coverage: coverage, elapsedSeconds: (ContinuousClock.now - started).seconds)
        spending = budgetSpending
        if let stop, index + 1 < series.count {
          return (
            ChildProcessIsolation.Outcome(status: 0, endedBySignal: false, issues: [], standardError: ""),
            lead + "With a fresh process per schedule (\(series)), the \(index + 1) schedule(s) run pass; the series "
              + "stopped there, as in one process: \(stop)."
          )
        }
      }
      let passing = ChildProcessIsolation.Outcome(status: 0, endedBySignal: false, issues: [], standardError: "")
      return (
        passing,
        lead + "With a fresh process per schedule (\(series)), all \(series.count) schedules pass."
      )
    }

    /// Whether a child ran its test to the end with no failure.
    static func passed(_ outcome: ChildProcessIsolation.Outcome) -> Bool {
      outcome.status == 0 && outcome.parentVerdict == .running && !outcome.endedBySignal
        && !outcome.issues.contains { !$0.isKnown }
    }
  }
#endif
