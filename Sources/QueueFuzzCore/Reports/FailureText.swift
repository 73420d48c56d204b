import QueueScenarios
import QueueTestingEngine

/// The text a failure prints: what broke, expected versus observed, the per-task trace and the
/// replay command.
enum FailureText {
  /// Prints `failure`, indented under its FAIL line.
  static func print(_ failure: ScenarioFailure, replay: String, console: FuzzConsole) {
    switch failure.problem {
    case .guarantees(let violations):
      for violation in violations {
        var line = "  \(violation.guarantee?.rawValue ?? "order") violated on queue '\(violation.queue)'"
        line += " (items \(violation.items.joined(separator: ", ")))"
        console.out(line)
        console.out("    expected: \(violation.expected.joined(separator: ", "))")
        console.out("    observed: \(violation.observed.joined(separator: ", "))")
      }
    case .unexpectedOutcome(let expected, let observed):
      console.out("  \(outcomeSentence(expected: expected.rawValue, observed: ScenarioProblem.describe(observed)))")
      if case .deadlocked(let report) = failure.run.outcome {
        console.out(report.description.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
      }
    case .nondeterminism(let first, let second):
      console.out(
        "  the same schedule ran twice and gave two traces (hashes \(String(first, radix: 16)) and \(String(second, radix: 16))):"
      )
      console.out("  something outside the schedule (state kept between runs, real time, a thread) changed the run")
    }
    if let summary = failure.run.strategySummary {
      // Which strategy found it (a portfolio takes turns; PCT states its bound).
      console.out("  found by: \(summary)")
    }
    console.out("  per-task trace (last 40 events):")
    console.out(
      failure.run.trace.columnView(limit: 40).split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
    console.out("  replay: \(replay)")
  }

  /// `swift run queue-fuzz replay FILE --schedule S [--queue-impl X] [--check-determinism]`.
  static func replayCommand(file: String, schedule: Schedule, options: ScenarioRunner.Options) -> String {
    "swift run queue-fuzz replay \(file) --schedule \(schedule)" + flags(options)
  }

  /// The options a command must repeat to see the same failure: ` --queue-impl X` unless the
  /// queues are the real ones, ` --check-determinism` when it was on.
  static func flags(_ options: ScenarioRunner.Options) -> String {
    (options.implementation == .real ? "" : " --queue-impl \(options.implementation.rawValue)")
      + (options.checkDeterminism ? " --check-determinism" : "")
  }

  /// "expected the run to complete, but it deadlocked", in plain English for every pair.
  static func outcomeSentence(expected: String, observed: String) -> String {
    let wanted =
      switch Scenario.Outcome(rawValue: expected) {
      case .completes: "complete"
      case .deadlocks: "deadlock"
      case .any: "complete or deadlock"
      case nil: expected
      }
    let happened =
      switch observed {
      case "completes": "completed"
      case "deadlocks": "deadlocked"
      default: "ended: \(observed)"
      }
    return "expected the run to \(wanted), but it \(happened)"
  }
}
