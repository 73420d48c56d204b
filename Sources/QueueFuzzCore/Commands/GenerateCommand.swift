import Foundation
import QueueScenarios
import QueueTestingEngine

/// `queue-fuzz generate --seed S --count N --out DIR`
@available(ExecutorHooks 1.0, *)
enum GenerateCommand: FuzzCommand {
  static let help = """
    USAGE: queue-fuzz generate --out DIR [--seed S] [--count N] [--queues N] [--callers N]
                               [--items N] [--steps N]

    Writes N random, valid scenario files (generated-<seed>-<i>.scenario) into DIR, creating it.
    The same seed and sizes write the same files.

    OPTIONS:
      --out DIR      Where to write (required).
      --seed S       Seed (default 0).
      --count N      How many files (default 10).
      --queues N     At most N queues per scenario (default 3).
      --callers N    At most N callers (default 3).
      --items N      Items per scenario (default 8).
      --steps N      At most N plain steps per item (default 3).
    """

  /// The most lines one `generate` writes (about 160 MB).
  static let maximumLines = 10_000_000

  static func main(_ arguments: [String], console: FuzzConsole) -> Int32 {
    let directory: String
    let seed: UInt64
    let count: Int
    let sizes: ScenarioGenerator.Sizes
    do {
      let reader = try ArgumentReader(
        arguments, options: ["--out", "--seed", "--count", "--queues", "--callers", "--items", "--steps"])
      guard reader.positionals.isEmpty else {
        return QueueFuzz.usageError(
          "unexpected argument '\(reader.positionals[0])'", help: help, console: console)
      }
      guard let out = reader.string("--out") else {
        return QueueFuzz.usageError("'generate' needs --out DIR", help: help, console: console)
      }
      directory = out
      seed = try reader.seed("--seed")
      count = try reader.integer("--count", default: 10, range: 1...1_000_000)
      sizes = ScenarioGenerator.Sizes(
        queues: try reader.integer("--queues", default: 3, range: 1...50),
        callers: try reader.integer("--callers", default: 3, range: 1...50),
        items: try reader.integer("--items", default: 8, range: 1...1000),
        stepsPerItem: try reader.integer("--steps", default: 3, range: 0...100))
    } catch {
      return QueueFuzz.usageError(error.message, help: help, console: console)
    }
    // Each file has about a line per queue and caller and (steps + 2) per item: a typo in
    // --count or --items must not fill the disk.
    let linesPerFile = sizes.queues + sizes.callers + sizes.items * (sizes.stepsPerItem + 2)
    let lines = count * linesPerFile
    guard lines <= maximumLines else {
      return QueueFuzz.usageError(
        "--count \(count) with these sizes would write about \(lines) lines (\(lines * 16 / 1_000_000) MB); at most \(maximumLines) lines at once",
        help: help, console: console)
    }
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      console.err("queue-fuzz: error: cannot create \(directory): \(error.localizedDescription)")
      return 2
    }
    var generator = ScenarioGenerator(seed: seed, sizes: sizes)
    for index in 1...count {
      let name = "generated-\(seed)-\(index)"
      let scenario = generator.next(name: name)
      let path = (directory as NSString).appendingPathComponent(name + ".scenario")
      let text = "# queue-fuzz generate --seed \(seed): scenario \(index) of \(count)\n" + scenario.text
      guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
        console.err("queue-fuzz: error: cannot write \(path)")
        return 2
      }
    }
    console.out("queue-fuzz: wrote \(count) scenario(s) to \(directory)")
    return 0
  }
}
