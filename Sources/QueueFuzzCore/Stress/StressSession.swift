import QueueScenarios
import QueueTestingEngine

/// One `queue-fuzz stress` session: runs the plan's scenarios until the budget ends, shrinks and
/// saves each failure, keeps the progress line up to date, and reports.
@available(ExecutorHooks 1.0, *)
struct StressSession {
  private let settings: StressCommand.Settings
  private let console: FuzzConsole
  private let text: FuzzConsole
  private let clock = ContinuousClock()
  private let start: ContinuousClock.Instant
  private var results: [FuzzReport.ScenarioResult] = []
  private var schedules = 0
  private var savedFiles: [String] = []
  /// Set when a failure could not be saved: the session stops rather than lose the next ones.
  private var saveFailed = false
  /// Saved shrunk cases (scenario text without its name) and their files: the same small case
  /// found again is reported, not saved twice.
  private var savedCases: [String: String] = [:]
  private var lastProgress: ContinuousClock.Instant

  init(settings: StressCommand.Settings, console: FuzzConsole) {
    self.settings = settings
    self.console = console
    text = settings.destination.textConsole(console)
    start = clock.now
    lastProgress = start
  }

  private var failures: Int { results.count { $0.status == "failed" } }
  private var elapsed: Double { QueueFuzz.seconds(start.duration(to: clock.now)) }

  /// Runs the session; returns the exit status.
  mutating func run(shouldStop: () -> Bool) -> Int32 {
    let plan = settings.plan
    var budget = settings.durationSeconds.map { "\(DurationText.format(seconds: $0))" } ?? ""
    if let count = plan.count { budget += (budget.isEmpty ? "" : ", at most ") + "\(count) scenario(s) in all" }
    text.out(
      "queue-fuzz stress: \(budget), shard \(plan.shard), seed \(plan.seed), \(settings.options.schedules) schedule(s) per scenario, strategy \(settings.options.strategy.rawValue), queues \(settings.options.implementation.rawValue)\(settings.options.checkDeterminism ? ", determinism checked" : "")"
    )
    var stopReason = "count"
    for index in plan.indices {
      if saveFailed {
        text.out("queue-fuzz stress: stopping: a failure could not be saved in \(settings.failuresDirectory)")
        stopReason = "failures-unwritable"
        break
      }
      if shouldStop() {
        stopReason = "interrupted"
        break
      }
      if let duration = settings.durationSeconds, elapsed >= duration {
        stopReason = "duration"
        break
      }
      if let resident = ResidentMemory.megabytes, resident > settings.memoryLimitMegabytes {
        // Runs that end deadlocked or over their step budget leave their tasks suspended for
        // good; stopping with a report beats being killed by the machine with none.
        text.out(
          "queue-fuzz stress: stopping early: \(resident) MB resident, over --memory-limit \(settings.memoryLimitMegabytes) (tasks of deadlocked runs can never be freed)"
        )
        stopReason = "memory-limit"
        break
      }
      runScenario(index)
      showProgress()
    }
    let interrupted = stopReason == "interrupted"

    let seconds = elapsed
    let summary = FuzzReport.Summary(results, seconds: seconds, interrupted: interrupted, stopReason: stopReason)
    text.out(
      "queue-fuzz stress: \(summary.scenarios) scenario(s), \(summary.schedules) schedules in \(QueueFuzz.format(seconds: seconds)) (\(Int(summary.schedulesPerSecond)) schedules/s), \(summary.failed) failure(s); shard \(plan.shard), seed \(plan.seed)\(interrupted ? "; interrupted by \(InterruptSignal.stopName)" : "")"
    )
    if !savedFiles.isEmpty {
      let duplicates = results.count { $0.failure?.duplicate == true }
      text.out(
        "failures saved (each fails 'queue-fuzz run' while the bug is there)\(duplicates > 0 ? "; \(duplicates) more shrank to a case already saved" : ""):"
      )
      for file in savedFiles { text.out("  \(file)") }
      text.out("check them all: swift run queue-fuzz run \(settings.failuresDirectory)\(implementationFlags)")
    }
    let report = FuzzReport(
      command: "stress",
      options: FuzzReport.Options(
        settings.options, shard: plan.shard.description, durationSeconds: settings.durationSeconds, count: plan.count),
      scenarios: results, summary: summary)
    guard settings.destination.write(report, console: console), !saveFailed else { return 2 }
    if summary.failed > 0 { return 1 }
    return interrupted ? 130 : 0
  }

  private var implementationFlags: String { FailureText.flags(settings.options) }

  private mutating func runScenario(_ index: Int) {
    let scenario = settings.plan.scenario(at: index)
    var options = settings.options
    options.seed = settings.plan.scheduleSeed(of: index)
    let report = ScenarioRunner.run(scenario, options: options)
    schedules += report.schedulesRun
    var result = FuzzReport.ScenarioResult(report, path: nil, index: index, replay: "")
    if let failure = report.failure {
      result.failure = save(failure, of: scenario, index: index, options: options)
    }
    results.append(result)
  }

  /// Shrinks, saves and prints a failure; returns its report record.
  private mutating func save(
    _ failure: ScenarioFailure, of scenario: Scenario, index: Int, options: ScenarioRunner.Options
  ) -> FuzzReport.Failure {
    text.out(
      "FAIL \(scenario.name) (scenario \(index) of seed \(settings.plan.seed)): \(failure.problem.summary) on schedule \(failure.scheduleNumber)"
    )
    var regression = scenario
    regression.regressionSchedules = [failure.run.schedule]
    var schedule = failure.run.schedule
    var regressionFailure = failure
    var shrinkRecord: FuzzReport.Shrink?
    var comments = [
      "Found by: queue-fuzz stress --seed \(settings.plan.seed) (scenario \(index)), schedule \(failure.scheduleNumber) of its series\(implementationFlags)",
      "Failure: \(failure.problem.summary)",
    ]
    if settings.shrinks {
      let shrinker = ScenarioShrinker(options: options, runBudget: 20_000)
      if let shrunk = shrinker.shrink(scenario, schedule: failure.run.schedule) {
        regression = shrunk.scenario
        schedule = shrunk.schedule
        regressionFailure = ScenarioFailure(
          problem: shrunk.failure, scheduleNumber: 1, series: .replay(shrunk.run.schedule), run: shrunk.run)
        shrinkRecord = FuzzReport.Shrink(
          before: shrunk.before, after: shrunk.after, schedule: shrunk.schedule.description, runs: shrunk.runs)
        comments.append("Shrunk (\(shrunk.kept) still fails): \(shrunk.before) -> \(shrunk.after), \(shrunk.runs) runs")
        text.out("  shrunk: \(shrunk.before)")
        text.out("      ->  \(shrunk.after) (\(shrunk.runs) runs)")
      }
    }
    func replay(_ file: String) -> String {
      FailureText.replayCommand(file: file, schedule: schedule, options: settings.options)
    }
    var record = FuzzReport.Failure(failure, replay: "")
    record.shrink = shrinkRecord
    var unnamed = regression
    unnamed.name = ""
    let caseKey = unnamed.text
    if let earlier = savedCases[caseKey] {
      text.out("  same shrunk case as \(earlier): not saved again")
      record.replay = replay(earlier)
      record.savedTo = earlier
      record.duplicate = true
      return record
    }
    let path = RegressionFile.save(
      RegressionFile.text(regression, comments: comments + ["Replay: " + replay("THIS_FILE")]),
      named: settings.plan.name(of: index), in: settings.failuresDirectory, console: console)
    if let path {
      savedFiles.append(path)
      savedCases[caseKey] = path
    } else {
      saveFailed = true
    }
    record.replay = replay(path ?? "FILE")
    record.savedTo = path
    // Print the saved case's failing run: small after a shrink, so its trace reads in a minute.
    FailureText.print(regressionFailure, replay: record.replay, console: text)
    if let path { text.out("  saved: \(path) (check: swift run queue-fuzz run \(path)\(implementationFlags))") }
    return record
  }

  private mutating func showProgress() {
    let now = clock.now
    let sinceLast = QueueFuzz.seconds(lastProgress.duration(to: now))
    let interval = console.status == nil ? settings.progressInterval : 0.2
    guard sinceLast >= interval else { return }
    lastProgress = now
    let seconds = elapsed
    var line =
      "progress: \(results.count) scenario(s)\(settings.plan.count.map { " of \($0) in all" } ?? ""), \(schedules) schedules, \(Int(Double(schedules) / max(seconds, 1e-9))) schedules/s, \(failures) failure(s)"
    if let duration = settings.durationSeconds {
      line += ", \(DurationText.format(seconds: max(duration - seconds, 0))) left"
    }
    if let status = console.status, !settings.destination.takesStandardOutput {
      status(line)
    } else {
      text.out(line)
    }
  }
}
