import QueueScenarios
import QueueTestingEngine

/// `queue-fuzz stress (--duration D | --count N) [--seed S] [--shard i/n] [--failures DIR]`
@available(ExecutorHooks 1.0, *)
enum StressCommand: FuzzCommand {
  static let help = """
    USAGE: queue-fuzz stress (--duration D | --count N) [--seed S] [--shard i/n] [--failures DIR]
                             [--schedules N] [--strategy random|pct|exhaustive|portfolio] [--queue-impl NAME]
                             [--step-budget N] [--check-determinism] [--no-shrink]
                             [--memory-limit MB] [--queues N] [--callers N] [--items N] [--steps N]
                             [--format text|json|junit] [--output FILE]

    Generates random scenarios from the seed and checks each under N schedules until the time
    budget or the count is used up. Every failure is shrunk (fewer callers, items, steps and
    preemptions while the same guarantee still fails) and saved into the failures folder as a
    scenario file with its schedule; 'queue-fuzz run FILE' fails on it while the bug is there.
    On a terminal a live progress line shows scenarios, schedules, schedules/s, failures and
    time left; otherwise a plain progress line is printed every 10 seconds. Ctrl-C or SIGTERM
    stops after the current scenario and prints the summary (a second one exits at once).

    OPTIONS:
      --duration D           Time budget: 30s, 10m, 1h, 500ms (a plain number is seconds).
      --count N              Scenarios to run, of all shards together.
      --seed S               Seed of the scenarios and their schedules (default 0).
      --shard i/n            Run only part i of n (1 <= i <= n): scenario k belongs to part
                             k % n + 1, so the parts are disjoint and together make the
                             unsharded run.
      --failures DIR         Where failures are saved (default queue-fuzz-failures).
      --schedules N          Schedules per scenario (default 100).
      --strategy NAME        random (default), pct (depth 3), exhaustive (delay bound 2), or
                             portfolio (random, PCT depth 3, random, PCT depth 2).
      --queue-impl NAME      real (default) or a mutant (see 'run --help').
      --step-budget N        Most jobs per schedule (default 100000).
      --check-determinism    Run each schedule twice; different traces are a failure.
      --no-shrink            Save failures as found, without shrinking them.
      --memory-limit MB      Stop early (with the summary) past this resident size (default
                             4096): a run that ends deadlocked keeps its tasks for good.
      --queues/--callers/--items/--steps N
                             Scenario sizes, as for 'generate' (defaults 3, 3, 8, 3).
      --format NAME          text (default), json or junit (one testcase per scenario).
      --output FILE          Write the json or junit report to FILE (text still printed).

    EXIT STATUS: 0 nothing failed, 1 a failure was found (and saved), 2 bad usage,
                 130 interrupted by Ctrl-C or SIGTERM before any failure.
    """

  /// What a session does.
  struct Settings {
    var plan: StressPlan
    var options: ScenarioRunner.Options
    var durationSeconds: Double?
    var failuresDirectory: String
    var shrinks: Bool
    var destination: ReportDestination
    /// Resident memory (MB) past which the session stops early.
    var memoryLimitMegabytes: Int
    /// Seconds between plain progress lines (when there is no status line).
    var progressInterval: Double = 10
  }

  static func main(_ arguments: [String], console: FuzzConsole) -> Int32 {
    InterruptSignal.install()
    defer { InterruptSignal.uninstall() }
    return run(arguments, console: console) { InterruptSignal.wasReceived }
  }

  /// Runs a session; `shouldStop` is asked between scenarios (Ctrl-C in the command line).
  static func run(_ arguments: [String], console: FuzzConsole, shouldStop: () -> Bool) -> Int32 {
    let settings: Settings
    do {
      settings = try readSettings(arguments)
    } catch {
      return QueueFuzz.usageError(error.message, help: help, console: console)
    }
    if let problem = settings.destination.outputProblem
      ?? OutputLocation.problemWritingFolder(settings.failuresDirectory)
    {
      console.err("queue-fuzz: error: \(problem); nothing was run")
      return 2
    }
    settings.destination.removeStaleReport()
    var session = StressSession(settings: settings, console: console)
    return session.run(shouldStop: shouldStop)
  }

  static func readSettings(_ arguments: [String]) throws(ArgumentReader.UsageError) -> Settings {
    let reader = try ArgumentReader(
      arguments,
      options: [
        "--duration", "--count", "--seed", "--shard", "--failures", "--schedules", "--strategy", "--queue-impl",
        "--step-budget", "--queues", "--callers", "--items", "--steps", "--format", "--output", "--memory-limit",
      ],
      flagNames: ["--check-determinism", "--no-shrink"])
    guard reader.positionals.isEmpty else {
      throw ArgumentReader.UsageError(message: "unexpected argument '\(reader.positionals[0])'")
    }
    var durationSeconds: Double?
    if let text = reader.string("--duration") {
      guard let seconds = DurationText.seconds(text) else {
        throw ArgumentReader.UsageError(
          message:
            "option '--duration' expects a positive time of at most a year, such as 30s, 10m or 1h, found '\(text)'")
      }
      durationSeconds = seconds
    }
    let count = reader.string("--count") == nil ? nil : try reader.integer("--count", default: 1, range: 1...Int.max)
    guard durationSeconds != nil || count != nil else {
      throw ArgumentReader.UsageError(message: "'stress' needs --duration D or --count N (or both)")
    }
    let shard = try reader.string("--shard").map { text throws(ArgumentReader.UsageError) in
      try StressPlan.Shard(parsing: text)
    }
    let sizes = ScenarioGenerator.Sizes(
      queues: try reader.integer("--queues", default: 3, range: 1...50),
      callers: try reader.integer("--callers", default: 3, range: 1...50),
      items: try reader.integer("--items", default: 8, range: 1...1000),
      stepsPerItem: try reader.integer("--steps", default: 3, range: 0...100))
    let options = try RunCommand.runnerOptions(reader, defaultSchedules: 100)
    return Settings(
      plan: StressPlan(seed: options.seed, shard: shard ?? .whole, count: count, sizes: sizes),
      options: options, durationSeconds: durationSeconds,
      failuresDirectory: reader.string("--failures") ?? "queue-fuzz-failures",
      shrinks: !reader.flags.contains("--no-shrink"), destination: try ReportDestination(reader),
      memoryLimitMegabytes: try reader.integer("--memory-limit", default: 4096, range: 64...1_000_000))
  }
}
