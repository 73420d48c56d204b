import QueueScenarios
import QueueTestingEngine

/// `queue-fuzz replay FILE --schedule TEXT`
@available(ExecutorHooks 1.0, *)
enum ReplayCommand: FuzzCommand {
  static let help = """
    USAGE: queue-fuzz replay FILE --schedule TEXT [--queue-impl NAME] [--step-budget N]
                             [--check-determinism]

    Runs one scenario once under the given schedule (as printed by 'run') and prints the outcome,
    the trace hash, every broken guarantee and the per-task trace. The same schedule gives the
    same trace hash in any process, debug or release. With --check-determinism the schedule
    runs a second time and different trace hashes are a failure.

    EXIT STATUS: 0 the guarantees held, 1 one failed, 2 bad input or usage.
    """

  static func main(_ arguments: [String], console: FuzzConsole) -> Int32 {
    let file: String
    let schedule: Schedule
    let options: ScenarioRunner.Options
    do {
      let reader = try ArgumentReader(
        arguments, options: ["--schedule", "--queue-impl", "--step-budget"], flagNames: ["--check-determinism"])
      guard reader.positionals.count == 1 else {
        return QueueFuzz.usageError("'replay' needs exactly one FILE", help: help, console: console)
      }
      file = reader.positionals[0]
      guard let text = reader.string("--schedule") else {
        return QueueFuzz.usageError(
          "'replay' needs --schedule TEXT (as printed by 'run')", help: help, console: console)
      }
      do {
        schedule = try Schedule(parsing: text)
      } catch {
        return QueueFuzz.usageError("invalid --schedule: \(error.message)", help: help, console: console)
      }
      if let problem = Scenario.problem(with: schedule) {
        return QueueFuzz.usageError("invalid --schedule: \(problem)", help: help, console: console)
      }
      // One schedule: the series options (--schedules, --seed, --strategy) are not accepted here.
      options = try RunCommand.runnerOptions(reader, defaultSchedules: 1)
    } catch {
      return QueueFuzz.usageError(error.message, help: help, console: console)
    }
    guard let scenario = ScenarioFiles.loadOrReport(file, console: console) else { return 2 }
    let (result, failure) = ScenarioRunner.check(scenario, strategy: ReplayStrategy(schedule), options: options)
    console.out("scenario: \(scenario.name)")
    console.out("outcome: \(result.outcome == .completed ? "completed" : "\(result.outcome)")")
    console.out("steps: \(result.steps), virtual time: \(result.virtualTime) ns")
    console.out("trace hash: \(String(result.trace.hash, radix: 16))")
    console.out(result.trace.columnView())
    guard let failure else {
      console.out("all checked guarantees held")
      return 0
    }
    FailureText.print(
      ScenarioFailure(problem: failure, scheduleNumber: 1, series: .replay(schedule), run: result),
      replay: FailureText.replayCommand(file: file, schedule: schedule, options: options),
      console: console)
    return 1
  }
}
