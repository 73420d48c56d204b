/// The first schedule of a series that failed, and what it takes to replay it: the one failure
/// type of the harness, for the trait, the XCTest entry point and queue-fuzz alike.
public struct ScheduleFailure: Sendable {
  /// How a schedule failed.
  public enum Problem: Equatable, Sendable {
    /// This many test failures were recorded while it ran.
    case failuresRecorded(Int)
    /// The body threw this error (described).
    case threw(String)
    /// The run deadlocked.
    case deadlocked(DeadlockReport)
    /// The run exceeded its step budget: a livelock, or a budget set too low.
    case stepBudgetExceeded(steps: Int)
    /// Declared outside wake-ups (by label) never came.
    case outsideWakeUpNeverCame([String])
    /// A job ran past the job limit without returning (see ``StuckJob``).
    case stuck(StuckJob)
    /// Another executor hook was installed during the run (by name).
    case foreignExecutorHook(String)
    /// Ordering guarantees of the queues were broken (see ``Guarantee``).
    case guarantees([OrderingViolation])
    /// The run ended otherwise than expected: `expected` and `observed` are words such as
    /// `completes`, `deadlocks` or `step budget exceeded after N steps`.
    case unexpectedOutcome(expected: String, observed: String)
    /// The same schedule, run twice, gave two different traces: something outside the
    /// schedule's control (state kept between runs, real time, an uncaptured thread) changed
    /// the run.
    case nondeterminism(firstHash: UInt64, secondHash: UInt64)

    /// What failed, as a stable word: the broken guarantees' names (sorted, comma-separated),
    /// `outcome:` and what the run did (`outcome:deadlocks`, `outcome:completes`,
    /// `outcome:step-budget`, `outcome:outside-wake-up`), `nondeterminism`, `failures` or
    /// `threw`. A shrinker keeps a failure of the same signature.
    public var signature: String {
      switch self {
      case .guarantees(let violations):
        Self.brokenGuarantees(violations).joined(separator: ",")
      case .unexpectedOutcome(_, let observed):
        if observed == "completes" || observed == "deadlocks" {
          "outcome:" + observed
        } else if observed.hasPrefix("step budget") {
          "outcome:step-budget"
        } else {
          "outcome:outside-wake-up"
        }
      case .deadlocked: "outcome:deadlocks"
      case .stepBudgetExceeded: "outcome:step-budget"
      case .outsideWakeUpNeverCame: "outcome:outside-wake-up"
      case .stuck: "outcome:stuck"
      case .foreignExecutorHook: "outcome:foreign-hook"
      case .nondeterminism: "nondeterminism"
      case .failuresRecorded: "failures"
      case .threw: "threw"
      }
    }

    /// Whether another run can follow one that failed this way in the same process: not after a
    /// job was left running on an abandoned thread (``stuck(_:)``), nor after another tool's
    /// executor hook took jobs (``foreignExecutorHook(_:)``): no other run could be the harness's.
    package var allowsAnotherRun: Bool {
      switch self {
      case .stuck, .foreignExecutorHook: false
      default: true
      }
    }

    /// The names of the guarantees `violations` break, sorted, each once.
    private static func brokenGuarantees(_ violations: [OrderingViolation]) -> [String] {
      Set(violations.compactMap(\.guarantee?.rawValue)).sorted()
    }

    /// Whether this failure includes `word`, one of the comma-separated words of a
    /// ``signature`` (a guarantee's name, `outcome:deadlocks`, `nondeterminism`, ...).
    public func includes(_ word: String) -> Bool {
      signature.split(separator: ",").contains { $0 == word }
    }

    /// What failed, for a person, in one line.
    public var summary: String {
      switch self {
      case .failuresRecorded(let count): "\(count) failure\(count == 1 ? "" : "s") recorded during the schedule"
      case .threw(let error): "the body threw \(error)"
      case .deadlocked(let report): "the run deadlocked.\n\(report)"
      case .stepBudgetExceeded(let steps):
        "the run exceeded its step budget after \(steps) steps (a livelock, or a budget set too low)"
      case .outsideWakeUpNeverCame(let labels):
        "declared outside wake-ups never came: \(labels.joined(separator: ", "))"
      case .stuck(let job): "the run got stuck: \(job)"
      case .foreignExecutorHook(let message): message
      case .guarantees(let violations):
        Self.brokenGuarantees(violations).joined(separator: ", ")
      case .unexpectedOutcome(let expected, let observed):
        "outcome: expected \(expected), observed \(observed)"
      case .nondeterminism(let first, let second):
        "nondeterminism: the same schedule gave trace hashes \(String(first, radix: 16)) and \(String(second, radix: 16))"
      }
    }
  }

  /// How it failed.
  public var problem: Problem
  /// Which schedule of the series, from 1.
  public var scheduleNumber: Int
  /// The series it belongs to.
  public var series: ScheduleSeries
  /// The run: its schedule replays it, its trace shows what happened.
  public var run: RunResult
  /// The distinct interleavings the series saw up to and including this schedule.
  public var coverage = TraceCoverage()
  /// Where the run recorded its failures (the expectations that failed), for ``chart``.
  package var failureMarks: [TraceChart.FailureMark] = []
  /// How the failing schedule was reduced to fewer preemptions, when it was; ``run`` is then the
  /// reduced run, which fails the same way and which its schedule replays.
  public var reduction: Reduction?

  /// A failing schedule reduced to fewer preemptions (see ``ScheduleReducer``).
  public struct Reduction: Sendable {
    /// The reduced run's preemptions, in order.
    public var preemptions: [Preemption]
    /// How many preemptions the failing schedule had.
    public var originalPreemptions: Int
    /// The failing schedule as the series found it.
    public var originalSchedule: Schedule
    /// The runs the reduction made.
    public var runs: Int
    /// Whether its budget ran out before it tried every removal.
    public var budgetExhausted: Bool

    /// Creates a record.
    public init(
      preemptions: [Preemption], originalPreemptions: Int, originalSchedule: Schedule, runs: Int,
      budgetExhausted: Bool
    ) {
      self.preemptions = preemptions
      self.originalPreemptions = originalPreemptions
      self.originalSchedule = originalSchedule
      self.runs = runs
      self.budgetExhausted = budgetExhausted
    }

    /// `1 preemption (step 14: task 2 'a' → task 3 'b'); the failing schedule had 37, reduced
    /// in 12 runs`, with task labels from `trace`.
    public func line(trace: Trace) -> String {
      let count = preemptions.count
      if count == 0 && originalPreemptions == 0 {
        return
          "0 preemptions: each task ran until it suspended or ended; the order in which waiting tasks ran is enough"
      }
      let list = preemptions.prefix(5).map {
        "step \($0.step): \(trace.label(ofTask: $0.from)) → \(trace.label(ofTask: $0.to))"
      }
      let shown = list.isEmpty ? "" : " (" + list.joined(separator: "; ") + (count > 5 ? "; …" : "") + ")"
      let origin =
        count == originalPreemptions
        ? "no fewer found in \(runs) run(s)"
        : "the failing schedule had \(originalPreemptions), reduced in \(runs) run(s)"
          // The run with none is always tried first, so 0 or 1 left is the fewest there are.
          + (count > 1 ? " (fewer, not necessarily the fewest)" : "")
      return "\(count) preemption\(count == 1 ? "" : "s")\(shown); \(origin)"
        + (budgetExhausted ? " (the reduction's budget ran out)" : "")
    }
  }

  /// Creates a failure record.
  public init(problem: Problem, scheduleNumber: Int, series: ScheduleSeries, run: RunResult) {
    self.problem = problem
    self.scheduleNumber = scheduleNumber
    self.series = series
    self.run = run
  }

  /// Whether the body was left unfinished (a deadlock, the step budget, a missing wake-up).
  public var leftBodyUnfinished: Bool {
    run.outcome != .completed
  }

  /// The run as a picture: an HTML page with a swimlane chart (see ``TraceChart``), its
  /// preemptions and failures marked.
  package var chart: TraceChart {
    // The title states what failed: the first failing expectation itself, when there is one.
    let what = failureMarks.first?.text ?? String(problem.summary.split(separator: "\n").first ?? "")
    return TraceChart(
      run: run, title: "Controlled schedule \(scheduleNumber) (\(series)) failed: \(what)",
      preemptions: reduction?.preemptions, failures: failureMarks)
  }

  /// The run's trace, one column per task (its last `limit` events), for an attachment or a log.
  public func traceText(limit: Int = 2_000) -> String {
    """
    Controlled schedule \(scheduleNumber) (\(series)), schedule \(run.schedule)
    \(run.steps) steps, trace hash \(String(run.trace.hash, radix: 16)); the last \(limit) events at most:

    \(run.trace.columnView(limit: limit))
    """
  }
}
