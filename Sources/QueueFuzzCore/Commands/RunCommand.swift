import Foundation
import QueueScenarios
import QueueTestingEngine

/// `queue-fuzz run PATH...`
@available(ExecutorHooks 1.0, *)
enum RunCommand: FuzzCommand {
  static let help = """
    USAGE: queue-fuzz run PATH... [--schedules N] [--seed S] [--strategy random|pct|exhaustive|portfolio]
                                  [--queue-impl NAME] [--step-budget N] [--check-determinism]
                                  [--format text|json|junit] [--output FILE] [--memory-limit MB]
                                  [--html DIR]

    Checks every scenario file (*.scenario) under each PATH (files or folders, recursive) under
    N schedules, stopping a scenario at its first failure. A file's 'schedule' lines (saved by
    'stress' and 'shrink') are replayed first. A failure prints the guarantee, the items,
    expected versus observed order, the per-task trace and a replay command.

    OPTIONS:
      --schedules N          Schedules per scenario (default 200; the budget for exhaustive).
      --seed S               Seed the schedules derive from (default 0).
      --strategy NAME        random (default), pct (depth 3), exhaustive (delay bound 2), or
                             portfolio (random, PCT depth 3, random, PCT depth 2).
      --queue-impl NAME      real (default), or a deliberately broken queue: task-per-enqueue,
                             fifo-suspend-release, actor-priority, state-between-runs,
                             barrier-starts-early, width-plus-one, cancelled-waiter-keeps-permit.
      --step-budget N        Most jobs per schedule (default 100000).
      --check-determinism    Run each schedule twice; different traces are a failure.
      --format NAME          text (default), json or junit (one testcase per scenario).
      --output FILE          Write the json or junit report to FILE (text still printed);
                             without it the report replaces the text on standard output.
      --html DIR             For each failing scenario, write DIR/NAME.html: a self-contained
                             page with a swimlane chart of the failing run (a lane per task,
                             its preemptions and the broken guarantee marked).
      --memory-limit MB      Stop early, with the summary, past this resident size (default
                             4096): tasks of deadlocked runs can never be freed. Read from
                             /proc, so enforced on Linux only.

    Ctrl-C or SIGTERM stops after the scenario in progress, with the summary and the report so
    far.

    EXIT STATUS: 0 all guarantees held, 1 one failed (or the run stopped at --memory-limit),
                 2 bad input or usage, 130 interrupted by Ctrl-C or SIGTERM before any failure.
    """

  static func main(_ arguments: [String], console: FuzzConsole) -> Int32 {
    InterruptSignal.install()
    defer { InterruptSignal.uninstall() }
    return run(arguments, console: console) { InterruptSignal.wasReceived }
  }

  /// Runs the command; `shouldStop` is asked between scenarios (Ctrl-C in the command line).
  /// `residentMegabytes` reads the process's resident size (a test can stand in for it).
  static func run(
    _ arguments: [String], console: FuzzConsole, shouldStop: () -> Bool,
    residentMegabytes: () -> Int? = { ResidentMemory.megabytes }
  ) -> Int32 {
    let options: ScenarioRunner.Options
    let paths: [String]
    let destination: ReportDestination
    let memoryLimitMegabytes: Int
    let htmlFolder: String?
    do {
      let reader = try ArgumentReader(
        arguments,
        options: [
          "--schedules", "--seed", "--strategy", "--queue-impl", "--step-budget", "--format", "--output",
          "--memory-limit", "--html",
        ],
        flagNames: ["--check-determinism"])
      guard !reader.positionals.isEmpty else {
        return QueueFuzz.usageError("'run' needs at least one PATH", help: help, console: console)
      }
      paths = reader.positionals
      options = try runnerOptions(reader, defaultSchedules: 200)
      destination = try ReportDestination(reader)
      memoryLimitMegabytes = try reader.integer("--memory-limit", default: 4096, range: 64...1_000_000)
      htmlFolder = reader.string("--html")
    } catch {
      return QueueFuzz.usageError(error.message, help: help, console: console)
    }
    if let problem = destination.outputProblem ?? htmlFolder.flatMap(OutputLocation.problemWritingFolder) {
      console.err("queue-fuzz: error: \(problem); nothing was run")
      return 2
    }
    destination.removeStaleReport()

    // Input that cannot be used still gets its report (json, junit), so that CI's report step
    // sees why nothing ran.
    func refuseInput(_ errors: [FuzzReport.InputError]) -> Int32 {
      let summary = FuzzReport.Summary(
        scenarios: 0, passed: 0, failed: 0, schedules: 0, seconds: 0, schedulesPerSecond: 0, interrupted: false,
        stopReason: "invalid-input")
      let report = FuzzReport(
        command: "run", options: FuzzReport.Options(options), scenarios: [], summary: summary, inputErrors: errors)
      _ = destination.write(report, console: console)
      return 2
    }
    var files: [String] = []
    for path in paths {
      guard let found = ScenarioFiles.find(under: path) else {
        console.err("queue-fuzz: error: no such file or directory: \(path)")
        return refuseInput([FuzzReport.InputError(path: path, message: "no such file or directory")])
      }
      if found.isEmpty { console.err("queue-fuzz: warning: no *.scenario files under \(path)") }
      files += found
    }
    guard !files.isEmpty else {
      console.err("queue-fuzz: error: no scenario files found")
      return 2
    }

    // Parse everything first: bad input is reported in full and nothing runs.
    var scenarios: [Scenario] = []
    var parseErrors: [ScenarioParseError] = []
    for file in files {
      switch ScenarioFiles.load(file) {
      case .success(let scenario): scenarios.append(scenario)
      case .failure(let errors): parseErrors += errors.errors
      }
    }
    guard parseErrors.isEmpty else {
      for error in parseErrors { console.err(error.description) }
      console.err("queue-fuzz: \(parseErrors.count) error(s) in scenario files; nothing was run")
      return refuseInput(
        parseErrors.map {
          FuzzReport.InputError(path: $0.path, line: $0.line, column: $0.column, message: $0.message)
        })
    }

    let text = destination.textConsole(console)
    text.out(
      "queue-fuzz: \(scenarios.count) scenario(s), \(options.schedules) schedule(s) each, strategy \(options.strategy.rawValue), seed \(options.seed), queues \(options.implementation.rawValue)\(options.checkDeterminism ? ", determinism checked" : "")"
    )
    let clock = ContinuousClock()
    let start = clock.now
    var results: [FuzzReport.ScenarioResult] = []
    var stopReason: String?
    for scenario in scenarios {
      if shouldStop() {
        stopReason = "interrupted"
        break
      }
      if let resident = residentMegabytes(), resident > memoryLimitMegabytes {
        text.out(
          "queue-fuzz: stopping early: \(resident) MB resident, over --memory-limit \(memoryLimitMegabytes) (tasks of deadlocked runs can never be freed)"
        )
        stopReason = "memory-limit"
        break
      }
      let report = ScenarioRunner.run(scenario, options: options)
      let path = scenario.path ?? "FILE"
      let replay = report.failure.map {
        FailureText.replayCommand(file: path, schedule: $0.run.schedule, options: options)
      }
      results.append(FuzzReport.ScenarioResult(report, path: scenario.path, replay: replay ?? ""))
      let exhausted =
        report.exhausted.map { exhausted in
          if exhausted { return ", space exhausted" }
          if report.inlineHopTasks.isEmpty { return ", budget reached" }
          return ", not exhausted: \(report.inlineHopTasks.joined(separator: ", ")) may leave an actor inline"
        } ?? ""
      if let failure = report.failure, let replay {
        text.out(
          "FAIL \(scenario.name) (\(path)): \(failure.problem.summary) on schedule \(failure.scheduleNumber) [\(QueueFuzz.format(report.elapsed))]"
        )
        FailureText.print(failure, replay: replay, console: text)
        if let htmlFolder {
          let written = FailureChart.write(failure, of: scenario, options: options, to: htmlFolder)
          text.out(written.map { "  picture: \($0)" } ?? "  picture: could not be written to \(htmlFolder)")
        }
      } else {
        let coverage = report.coverage
        text.out(
          "PASS \(scenario.name): \(report.schedulesRun) schedule(s), \(coverage.distinctTraces) distinct trace(s), "
            + "newest at schedule \(coverage.lastNewRun)\(exhausted) [\(QueueFuzz.format(report.elapsed))]")
      }
    }
    let elapsed = QueueFuzz.seconds(start.duration(to: clock.now))
    let interrupted = stopReason == "interrupted"
    let summary = FuzzReport.Summary(results, seconds: elapsed, interrupted: interrupted, stopReason: stopReason)
    let notRun = scenarios.count - results.count
    text.out(
      "queue-fuzz: \(summary.passed) passed, \(summary.failed) failed; \(summary.schedules) schedules in \(QueueFuzz.format(seconds: elapsed)) (\(Int(summary.schedulesPerSecond)) schedules/s)\(notRun > 0 ? "; \(notRun) scenario(s) not run (\(interrupted ? "interrupted by \(InterruptSignal.stopName)" : "memory limit"))" : "")"
    )
    let report = FuzzReport(
      command: "run", options: FuzzReport.Options(options), scenarios: results, summary: summary)
    guard destination.write(report, console: console) else { return 2 }
    if summary.failed > 0 || stopReason == "memory-limit" { return 1 }
    return interrupted ? 130 : 0
  }

  /// The runner options shared by `run` and `stress`.
  static func runnerOptions(_ reader: ArgumentReader, defaultSchedules: Int) throws(ArgumentReader.UsageError)
    -> ScenarioRunner.Options
  {
    ScenarioRunner.Options(
      schedules: try reader.integer("--schedules", default: defaultSchedules, range: 1...10_000_000),
      seed: try reader.seed("--seed"),
      strategy: try reader.choice("--strategy", default: ScenarioRunner.StrategyKind.random),
      implementation: try reader.choice("--queue-impl", default: QueueImplementation.real),
      stepBudget: try reader.integer(
        "--step-budget", default: ControlledExecutor.defaultStepBudget, range: 1...100_000_000),
      checkDeterminism: reader.flags.contains("--check-determinism"))
  }
}
