import Foundation
import QueueScenarios
import QueueTestingEngine

/// `queue-fuzz shrink FILE [--schedule TEXT]`
@available(ExecutorHooks 1.0, *)
enum ShrinkCommand: FuzzCommand {
  static let help = """
    USAGE: queue-fuzz shrink FILE [--schedule TEXT] [--queue-impl NAME] [--step-budget N]
                                  [--check-determinism] [--schedules N] [--seed S]
                                  [--run-budget N] [--out FILE]

    Makes a failing scenario and its schedule as small as it can while the same guarantee (or
    outcome) still fails: removes callers, items, queues and steps, makes steps plainer, and
    takes preemptions out of the schedule. Prints the sizes before and after and the shrunk
    scenario, with its schedule as a 'schedule' line, so that 'queue-fuzz run' replays it.

    The failing schedule is --schedule, else the file's first 'schedule' line, else the first
    failing one of --schedules random schedules from --seed.

    OPTIONS:
      --schedule TEXT        The failing schedule (as printed by 'run').
      --queue-impl NAME      real (default) or a mutant (see 'run --help').
      --step-budget N        Most jobs per schedule (default 100000).
      --check-determinism    Shrink a nondeterminism failure (each schedule runs twice).
      --schedules N          Schedules to search when no schedule is given (default 200).
      --seed S               Seed of that search (default 0).
      --run-budget N         Most schedules to run while shrinking (default 50000).
      --out FILE             Write the shrunk scenario to FILE instead of standard output.

    EXIT STATUS: 0 shrunk, 2 bad input or usage, or no failure to shrink.
    """

  /// What `shrink` was asked to do.
  private struct Request {
    var file: String
    var options: ScenarioRunner.Options
    var schedule: Schedule?
    var runBudget: Int
    var outPath: String?
  }

  /// The request `arguments` make; nil after a usage error, said on `console` (exit status 2).
  private static func request(_ arguments: [String], console: FuzzConsole) -> Request? {
    do {
      let reader = try ArgumentReader(
        arguments,
        options: [
          "--schedule", "--queue-impl", "--step-budget", "--schedules", "--seed", "--run-budget", "--out",
        ], flagNames: ["--check-determinism"])
      guard reader.positionals.count == 1 else {
        _ = QueueFuzz.usageError("'shrink' needs exactly one FILE", help: help, console: console)
        return nil
      }
      var schedule: Schedule?
      if let text = reader.string("--schedule") {
        do {
          schedule = try Schedule(parsing: text)
        } catch {
          _ = QueueFuzz.usageError("invalid --schedule: \(error.message)", help: help, console: console)
          return nil
        }
        if let problem = schedule.flatMap(Scenario.problem(with:)) {
          _ = QueueFuzz.usageError("invalid --schedule: \(problem)", help: help, console: console)
          return nil
        }
      }
      return Request(
        file: reader.positionals[0], options: try RunCommand.runnerOptions(reader, defaultSchedules: 200),
        schedule: schedule, runBudget: try reader.integer("--run-budget", default: 50_000, range: 1...100_000_000),
        outPath: reader.string("--out"))
    } catch {
      _ = QueueFuzz.usageError(error.message, help: help, console: console)
      return nil
    }
  }

  static func main(_ arguments: [String], console: FuzzConsole) -> Int32 {
    guard let request = Self.request(arguments, console: console) else { return 2 }
    let (file, options, runBudget, outPath) = (request.file, request.options, request.runBudget, request.outPath)
    var schedule = request.schedule
    // Checked before the search: finding out after a long shrink is too late.
    if let outPath, let problem = OutputLocation.problemWritingFile(at: outPath) {
      console.err("queue-fuzz: error: --out: \(problem); nothing was run")
      return 2
    }
    guard let scenario = ScenarioFiles.loadOrReport(file, console: console) else { return 2 }
    if schedule == nil { schedule = scenario.regressionSchedules.first }
    if schedule == nil {
      var searched = scenario
      searched.regressionSchedules = []
      let report = ScenarioRunner.run(searched, options: options)
      guard let failure = report.failure else {
        console.err(
          "queue-fuzz: error: \(file) did not fail in \(report.schedulesRun) schedule(s) (\(options.series)): nothing to shrink; give --schedule, or more --schedules"
        )
        return 2
      }
      console.out("found: \(failure.problem.summary) on schedule \(failure.scheduleNumber) (\(failure.run.schedule))")
      schedule = failure.run.schedule
    }
    guard let schedule else { return 2 }

    let clock = ContinuousClock()
    let start = clock.now
    let shrinker = ScenarioShrinker(options: options, runBudget: runBudget)
    guard let shrunk = shrinker.shrink(scenario, schedule: schedule) else {
      console.err(
        "queue-fuzz: error: \(file) does not fail under \(schedule)\(options.implementation == .real ? "" : " with --queue-impl \(options.implementation.rawValue)"): nothing to shrink"
      )
      return 2
    }
    let elapsed = start.duration(to: clock.now)
    return report(shrunk, of: file, elapsed: elapsed, options: options, outPath: outPath, console: console)
  }

  /// Says what the shrink kept and made, and writes the shrunk scenario (to `outPath`, or
  /// standard output); the exit status.
  private static func report(
    _ shrunk: ScenarioShrinker.Result, of file: String, elapsed: Duration, options: ScenarioRunner.Options,
    outPath: String?, console: FuzzConsole
  ) -> Int32 {
    console.out("failure kept: \(shrunk.kept)")
    console.out("before: \(shrunk.before)")
    console.out(
      "after:  \(shrunk.after) (\(shrunk.runs) schedules run in \(QueueFuzz.format(elapsed))\(shrunk.budgetReached ? "; run budget reached, not minimal" : ""))"
    )
    let switches = shrunk.preemptions.count
    console.out(
      "preemptions: \(switches) (switches away from work that could have gone on\(switches == 0 ? "" : ": " + shrunk.preemptions.map { shrunk.run.trace.label(ofTask: $0.from) + " → " + shrunk.run.trace.label(ofTask: $0.to) + " at step \($0.step)" }.joined(separator: "; ")))"
    )
    let comments = [
      "Shrunk by queue-fuzz shrink from \(file) (\(shrunk.kept) still fails)",
      "Before: \(shrunk.before)", "After:  \(shrunk.after)",
    ]
    let text = RegressionFile.text(shrunk.scenario, comments: comments)
    let replayFile: String
    if let outPath {
      guard RegressionFile.write(text, to: outPath, console: console) else { return 2 }
      console.out("saved: \(outPath)")
      replayFile = outPath
    } else {
      console.out("---")
      console.out(String(text.dropLast()))
      console.out("---")
      replayFile = "FILE"
    }
    console.out(
      "replay: "
        + FailureText.replayCommand(file: replayFile, schedule: shrunk.schedule, options: options))
    return 0
  }
}
