/// A `queue-fuzz` subcommand: its help text and its entry point. `QueueFuzz.main` picks one by
/// name and answers `--help` for all of them.
@available(ExecutorHooks 1.0, *)
protocol FuzzCommand {
  /// The command's usage, options and exit statuses.
  static var help: String { get }
  /// Runs the command with its arguments (the command name removed); returns the exit status.
  static func main(_ arguments: [String], console: FuzzConsole) -> Int32
}
