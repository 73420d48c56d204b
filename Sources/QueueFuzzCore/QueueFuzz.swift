import Foundation
import QueueScenarios
import QueueTestingEngine

/// The `queue-fuzz` command line: `run`, `replay`, `generate`, `stress`, `shrink`.
///
/// Exit status: 0 every guarantee held, 1 a guarantee (or expected outcome) failed, 2 bad input
/// or usage.
package enum QueueFuzz {
  static let overview = """
    OVERVIEW: Replays enqueue/suspend scenarios under many schedules of a controlled executor and
    checks the ordering guarantees of FIFOQueue, ActorQueue and MainActor.queue.

    USAGE: queue-fuzz <command> [options]
           queue-fuzz help <command>
           queue-fuzz --version

    COMMANDS:
      run PATH...          Check every scenario file under PATH (files or folders, recursive).
      replay FILE          Replay one schedule of one scenario exactly (same trace hash).
      generate             Write random valid scenario files.
      stress               Generate and check scenarios for a time budget; shrink and save failures.
      shrink FILE          Shrink a failing scenario and schedule to a small regression file.

    Run 'queue-fuzz help <command>' (or 'queue-fuzz <command> --help') for a command's options.
    """

  /// This build's version: the package has no tagged release yet, so it says which format of
  /// scenario files it reads and which schedules (`s1:`) it replays, the two things a version
  /// must match to replay a saved failure.
  package static let version =
    "queue-fuzz 0.1.0-dev (scenario format \(ScenarioParser.formatVersion), schedules \(Schedule.versionPrefix))"

  /// The command names, for help and for "did you mean".
  static let commandNames = ["run", "replay", "generate", "stress", "shrink"]

  /// Runs the command line `arguments` (without the program name); returns the exit status.
  package static func main(_ arguments: [String], console: FuzzConsole = .standard) -> Int32 {
    guard let command = arguments.first else {
      console.err(overview)
      return 2
    }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "--help", "-h":
      console.out(overview)
      return 0
    case "help":
      // `help` alone, or `help COMMAND` for that command's options.
      guard let topic = rest.first else {
        console.out(overview)
        return 0
      }
      guard rest.count == 1, let help = help(of: topic) else {
        let what = rest.count == 1 ? "unknown command '\(topic)'" : "'help' takes one command"
        return usageError(
          what + NearestWord.suggestion(for: topic, among: commandNames)
            + " (expected run, replay, generate, stress or shrink)", help: overview, console: console)
      }
      console.out(help)
      return 0
    case "--version", "version":
      console.out(version)
      return 0
    default:
      break
    }
    // Every command drives the controlled executor, which needs the Swift 6.3 runtime's
    // executor-factory hooks; the help above works everywhere.
    guard #available(ExecutorHooks 1.0, *) else {
      console.err(unsupportedSystem)
      return 2
    }
    guard let type = commands[command] else {
      let known = commandNames + ["help", "--help", "--version"]
      console.err(
        "queue-fuzz: error: unknown command '\(command)'\(NearestWord.suggestion(for: command, among: known))"
          + " (expected run, replay, generate, stress or shrink)")
      console.err(overview)
      return 2
    }
    // `--help` anywhere among a command's arguments prints its help and runs nothing.
    if rest.contains("--help") || rest.contains("-h") {
      console.out(type.help)
      return 0
    }
    return type.main(rest, console: console)
  }

  /// The help of the command `name`, nil for no such command.
  static func help(of name: String) -> String? {
    // The commands exist where the controlled executor does; elsewhere their help says so.
    guard #available(ExecutorHooks 1.0, *) else {
      return commandNames.contains(name) ? unsupportedSystem : nil
    }
    return switch name {
    case "run": RunCommand.help
    case "replay": ReplayCommand.help
    case "generate": GenerateCommand.help
    case "stress": StressCommand.help
    case "shrink": ShrinkCommand.help
    default: nil
    }
  }

  /// What an OS older than the controlled executor needs gets instead of a run.
  static let unsupportedSystem = """
    queue-fuzz: error: queue-fuzz runs scenarios under the controlled executor, which needs \
    macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4 or visionOS 26.4 (the Swift 6.3 runtime's \
    executor hooks); this system is older
    """

  @available(ExecutorHooks 1.0, *)
  private static var commands: [String: any FuzzCommand.Type] {
    [
      "run": RunCommand.self, "replay": ReplayCommand.self, "generate": GenerateCommand.self,
      "stress": StressCommand.self, "shrink": ShrinkCommand.self,
    ]
  }

  /// Prints a usage error and the command's help; returns 2.
  static func usageError(_ message: String, help: String, console: FuzzConsole) -> Int32 {
    console.err("queue-fuzz: error: \(message)")
    console.err(help)
    return 2
  }

  static func format(_ duration: Duration) -> String {
    format(seconds: seconds(duration))
  }

  static func format(seconds value: Double) -> String {
    value < 1 ? String(format: "%.0f ms", value * 1000) : String(format: "%.2f s", value)
  }

  static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
