import Foundation
import QueueScenarios
import QueueTestingEngine

/// The `queue-fuzz` command line: `run`, `replay`, `generate`, `stress`, `shrink`.
///
/// Exit status: 0 every guarantee held, 1 a guarantee (or expected outcome) failed, 2 bad input
/// or usage.
public enum QueueFuzz {
  static let overview = """
    OVERVIEW: Replays enqueue/suspend scenarios under many schedules of a controlled executor and
    checks the ordering guarantees of FIFOQueue, ActorQueue and MainActor.queue.

    USAGE: queue-fuzz <command> [options]

    COMMANDS:
      run PATH...          Check every scenario file under PATH (files or folders, recursive).
      replay FILE          Replay one schedule of one scenario exactly (same trace hash).
      generate             Write random valid scenario files.
      stress               Generate and check scenarios for a time budget; shrink and save failures.
      shrink FILE          Shrink a failing scenario and schedule to a small regression file.

    Run 'queue-fuzz <command> --help' for a command's options.
    """

  /// Runs the command line `arguments` (without the program name); returns the exit status.
  public static func main(_ arguments: [String], console: FuzzConsole = .standard) -> Int32 {
    guard let command = arguments.first else {
      console.err(overview)
      return 2
    }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "--help", "-h", "help":
      console.out(overview)
      return 0
    default:
      break
    }
    // Every command drives the controlled executor, which needs the Swift 6.3 runtime's
    // executor-factory hooks; the help above works everywhere.
    guard #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) else {
      console.err(unsupportedSystem)
      return 2
    }
    guard let type = commands[command] else {
      console.err("queue-fuzz: error: unknown command '\(command)' (expected run, replay, generate, stress or shrink)")
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

  /// What an OS older than the controlled executor needs gets instead of a run.
  static let unsupportedSystem = """
    queue-fuzz: error: queue-fuzz runs scenarios under the controlled executor, which needs \
    macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4 or visionOS 26.4 (the Swift 6.3 runtime's \
    executor hooks); this system is older
    """

  @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
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
