/// What makes two failures the same failure: the kind of problem, and where it was recorded (the
/// expectations that failed, the error thrown, the wake-ups that never came, the guarantees
/// broken). The one notion of "fails the same way" in the harness: a reduction keeps a candidate
/// run only if its identity equals the failing run's (see ``SeriesRunner``).
///
/// What a run measured (its steps, a deadlock's report, a stuck job's time) is not part of it:
/// a reduced run fails the same way with fewer steps.
package struct FailureIdentity: Hashable, Sendable {
  private let words: [String]

  /// The identity of `problem`, whose failures were recorded at `locations` (file:line:column,
  /// in order; empty when the judge records none).
  package init(_ problem: ScheduleFailure.Problem, recordedAt locations: [String] = []) {
    words =
      switch problem {
      case .failuresRecorded: ["failures"] + locations
      case .threw(let error): ["threw", error]
      case .deadlocked: ["deadlocked"]
      case .stepBudgetExceeded: ["step budget"]
      case .outsideWakeUpNeverCame(let labels): ["outside wake-up"] + labels
      case .stuck: ["stuck"]
      case .foreignExecutorHook(let message): ["foreign hook", message]
      case .guarantees, .unexpectedOutcome, .nondeterminism: [problem.signature]
      }
  }
}
