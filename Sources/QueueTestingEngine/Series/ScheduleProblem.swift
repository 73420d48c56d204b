/// How a schedule of a test's series failed: what ``ScheduleFailure/problem`` says under the
/// trait, ``ControlledScheduling`` and the XCTest entry point.
public enum ScheduleProblem: Equatable, Sendable {
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

  /// What failed, for a person, in one line (a deadlock's report follows on lines of its own).
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
    }
  }

  /// How a schedule whose run ended with `outcome` failed, nil if it passed: a run that did not
  /// complete fails as it ended; one that completed fails if its body threw (`thrown`, described)
  /// or recorded failures.
  package init?(_ outcome: RunResult.Outcome, thrown: String?, failures: Int) {
    switch outcome {
    case .deadlocked(let deadlock): self = .deadlocked(deadlock)
    case .stepBudgetExceeded(let steps): self = .stepBudgetExceeded(steps: steps)
    case .outsideWakeUpNeverCame(let labels): self = .outsideWakeUpNeverCame(labels)
    case .stuck(let job): self = .stuck(job)
    case .foreignExecutorHook(let message): self = .foreignExecutorHook(message)
    case .completed:
      if let thrown {
        self = .threw(thrown)
      } else if failures > 0 {
        self = .failuresRecorded(failures)
      } else {
        return nil
      }
    }
  }
}

extension ScheduleProblem: SeriesProblem {
  /// Not after a job was left running on an abandoned thread (``stuck(_:)``), nor after another
  /// tool's executor hook took jobs (``foreignExecutorHook(_:)``): no other run could be the
  /// harness's.
  package var allowsAnotherRun: Bool {
    switch self {
    case .stuck, .foreignExecutorHook: false
    default: true
    }
  }

  /// The kind of problem, and where its failures were recorded (or the error thrown, or the
  /// wake-ups that never came); nothing the run measured, such as its steps.
  package func identity(recordedAt locations: [String]) -> FailureIdentity {
    switch self {
    case .failuresRecorded: FailureIdentity(["failures"] + locations)
    case .threw(let error): FailureIdentity(["threw", error])
    case .deadlocked: FailureIdentity(["deadlocked"])
    case .stepBudgetExceeded: FailureIdentity(["step budget"])
    case .outsideWakeUpNeverCame(let labels): FailureIdentity(["outside wake-up"] + labels)
    case .stuck: FailureIdentity(["stuck"])
    case .foreignExecutorHook(let message): FailureIdentity(["foreign hook", message])
    }
  }
}
