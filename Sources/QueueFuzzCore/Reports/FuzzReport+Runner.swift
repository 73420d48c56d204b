import QueueScenarios
import QueueTestingEngine

extension FuzzReport.Options {
  /// The options of a run or stress session.
  init(_ options: ScenarioRunner.Options, shard: String? = nil, durationSeconds: Double? = nil, count: Int? = nil) {
    self.init(
      schedules: options.schedules, seed: options.seed, strategy: options.strategy.rawValue,
      queueImplementation: options.implementation.rawValue, stepBudget: options.stepBudget,
      checkDeterminism: options.checkDeterminism, shard: shard, durationSeconds: durationSeconds, count: count)
  }
}

extension FuzzReport.Failure {
  /// A runner's failure, replayed by `replay`.
  init(_ failure: ScenarioFailure, replay: String) {
    var violations: [FuzzReport.Violation] = []
    var expectedOutcome: String?
    var observedOutcome: String?
    let kind: String
    switch failure.problem {
    case .guarantees(let broken):
      kind = "guarantee"
      violations = broken.map {
        FuzzReport.Violation(
          guarantee: $0.guarantee?.rawValue ?? "order", queue: $0.queue, items: $0.items, expected: $0.expected,
          observed: $0.observed)
      }
    case .unexpectedOutcome(let expected, let observed):
      kind = "outcome"
      expectedOutcome = expected.rawValue
      observedOutcome = ScenarioProblem.describe(observed)
    case .nondeterminism:
      kind = "nondeterminism"
    }
    var deadlock: String?
    if case .deadlocked(let report) = failure.run.outcome { deadlock = report.description }
    self.init(
      kind: kind, signature: failure.problem.signature, message: failure.problem.summary,
      scheduleNumber: failure.scheduleNumber, schedule: failure.run.schedule.description,
      traceHash: String(failure.run.trace.hash, radix: 16), violations: violations.isEmpty ? nil : violations,
      expectedOutcome: expectedOutcome, observedOutcome: observedOutcome, replay: replay, savedTo: nil, duplicate: nil,
      shrink: nil, outsideWork: failure.run.outsideWork.isEmpty ? nil : failure.run.outsideWork.description,
      deadlock: deadlock)
  }
}

extension FuzzReport.ScenarioResult {
  /// A runner's report on one scenario; `replay` is the failure's replay command.
  init(_ report: ScenarioRunner.Report, path: String?, index: Int? = nil, replay: String) {
    self.init(
      name: report.scenario.name, path: path, index: index, status: report.failure == nil ? "passed" : "failed",
      schedules: report.schedulesRun, exhausted: report.exhausted, seconds: QueueFuzz.seconds(report.elapsed),
      failure: report.failure.map { FuzzReport.Failure($0, replay: replay) },
      distinctTraces: report.coverage.distinctTraces, schedulesSinceNewTrace: report.coverage.runsSinceNewTrace)
  }
}

extension FuzzReport.Summary {
  /// Totals over `scenarios`.
  init(_ scenarios: [FuzzReport.ScenarioResult], seconds: Double, interrupted: Bool, stopReason: String? = nil) {
    let schedules = scenarios.reduce(0) { $0 + $1.schedules }
    let failed = scenarios.count { $0.status == "failed" }
    self.init(
      scenarios: scenarios.count, passed: scenarios.count - failed, failed: failed, schedules: schedules,
      seconds: seconds, schedulesPerSecond: Double(schedules) / max(seconds, 1e-9), interrupted: interrupted,
      stopReason: stopReason)
  }
}
