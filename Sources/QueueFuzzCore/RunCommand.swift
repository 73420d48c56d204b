import Foundation
import QueueTesting

/// `queue-fuzz run PATH...`
enum RunCommand: FuzzCommand {
  static let help = """
    USAGE: queue-fuzz run PATH... [--schedules N] [--seed S] [--strategy random|pct|exhaustive]
                                  [--queue-impl NAME] [--step-budget N]

    Checks every scenario file (*.scenario) under each PATH (files or folders, recursive) under
    N schedules, stopping a scenario at its first failure. A failure prints the guarantee, the
    items, expected versus observed order, the per-task trace and a replay command.

    OPTIONS:
      --schedules N      Schedules per scenario (default 200; the budget for exhaustive).
      --seed S           Seed the schedules derive from (default 0).
      --strategy NAME    random (default), pct, or exhaustive (delay bound 2).
      --queue-impl NAME  real (default), or a deliberately broken queue:
                         task-per-enqueue, fifo-suspend-release, actor-priority.
      --step-budget N    Most jobs per schedule (default 100000).

    EXIT STATUS: 0 all guarantees held, 1 one failed, 2 bad input or usage.
    """

  static func main(_ arguments: [String], console: FuzzConsole) -> Int32 {
    let options: ScenarioRunner.Options
    let paths: [String]
    do {
      let reader = try ArgumentReader(
        arguments, options: ["--schedules", "--seed", "--strategy", "--queue-impl", "--step-budget"])
      guard !reader.positionals.isEmpty else {
        return QueueFuzz.usageError("'run' needs at least one PATH", help: help, console: console)
      }
      paths = reader.positionals
      options = ScenarioRunner.Options(
        schedules: try reader.integer("--schedules", default: 200, range: 1...10_000_000),
        seed: try reader.seed("--seed"),
        strategy: try reader.choice("--strategy", default: ScenarioRunner.StrategyKind.random),
        implementation: try reader.choice("--queue-impl", default: QueueImplementation.real),
        stepBudget: try reader.integer("--step-budget", default: 100_000, range: 1...100_000_000))
    } catch {
      return QueueFuzz.usageError(error.message, help: help, console: console)
    }

    var files: [String] = []
    for path in paths {
      guard let found = ScenarioFiles.find(under: path) else {
        console.err("queue-fuzz: error: no such file or directory: \(path)")
        return 2
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
      return 2
    }

    console.out(
      "queue-fuzz: \(scenarios.count) scenario(s), \(options.schedules) schedule(s) each, strategy \(options.strategy.rawValue), seed \(options.seed), queues \(options.implementation.rawValue)"
    )
    let clock = ContinuousClock()
    let start = clock.now
    var failed = 0
    var totalSchedules = 0
    for scenario in scenarios {
      let report = ScenarioRunner.run(scenario, options: options)
      totalSchedules += report.schedulesRun
      let exhausted = report.exhausted.map { $0 ? ", space exhausted" : ", budget reached" } ?? ""
      if let failure = report.failure {
        failed += 1
        console.out(
          "FAIL \(scenario.name) (\(scenario.path ?? "")): \(failure.summary) on schedule \(failure.scheduleNumber) [\(QueueFuzz.format(report.elapsed))]"
        )
        printFailure(failure, scenario: scenario, options: options, console: console)
      } else {
        console.out(
          "PASS \(scenario.name): \(report.schedulesRun) schedule(s)\(exhausted) [\(QueueFuzz.format(report.elapsed))]")
      }
    }
    let elapsed = start.duration(to: clock.now)
    let rate = Double(totalSchedules) / max(QueueFuzz.seconds(elapsed), 1e-9)
    console.out(
      "queue-fuzz: \(scenarios.count - failed) passed, \(failed) failed; \(totalSchedules) schedules in \(QueueFuzz.format(elapsed)) (\(Int(rate)) schedules/s)"
    )
    return failed == 0 ? 0 : 1
  }

  static func printFailure(
    _ failure: ScenarioRunner.Failure, scenario: Scenario, options: ScenarioRunner.Options, console: FuzzConsole
  ) {
    switch failure.kind {
    case .guarantees(let violations):
      for violation in violations {
        var line = "  \(violation.guarantee?.rawValue ?? "order") violated on queue '\(violation.queue)'"
        line += " (items \(violation.items.joined(separator: ", ")))"
        console.out(line)
        console.out("    expected: \(violation.expected.joined(separator: ", "))")
        console.out("    observed: \(violation.observed.joined(separator: ", "))")
      }
    case .outcome(let expected, let observed):
      console.out(
        "  expected the run to \(expected == .completes ? "complete" : expected.rawValue), but it \(observed)")
      if case .deadlocked(let report) = failure.run.outcome {
        console.out(report.description.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
      }
    }
    console.out("  per-task trace (last 40 events):")
    console.out(
      failure.run.trace.columnView(limit: 40).split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
    let implementation = options.implementation == .real ? "" : " --queue-impl \(options.implementation.rawValue)"
    console.out(
      "  replay: swift run queue-fuzz replay \(scenario.path ?? "FILE") --schedule \(failure.run.schedule)\(implementation)"
    )
  }
}
