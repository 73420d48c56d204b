import Foundation
import QueueScenarios
import QueueTestingEngine

/// A failing case saved as a scenario file: comments saying where it came from and how to
/// replay it, then the scenario with its failing schedule (a `schedule` line), so that
/// `queue-fuzz run FILE` replays the failure first and fails on it while the bug is there.
enum RegressionFile {
  /// The file's text: `comments` as `#` lines, then `scenario` (whose regression schedules
  /// must hold the failing schedule).
  static func text(_ scenario: Scenario, comments: [String]) -> String {
    comments.map { "# " + $0 }.joined(separator: "\n") + "\n" + scenario.text
  }

  /// Writes `text` to `directory/name.scenario`, creating the folder; the path, or nil with an
  /// error printed.
  static func save(_ text: String, named name: String, in directory: String, console: FuzzConsole) -> String? {
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      console.err("queue-fuzz: error: cannot create \(directory): \(error.localizedDescription)")
      return nil
    }
    let path = (directory as NSString).appendingPathComponent(name + ".scenario")
    return write(text, to: path, console: console) ? path : nil
  }

  /// Writes `text` to `path` (see ``OutputFile``); false, with an error printed, when it cannot.
  static func write(_ text: String, to path: String, console: FuzzConsole) -> Bool {
    do {
      try OutputFile.at(path).get().write(Data(text.utf8))
    } catch {
      console.err("queue-fuzz: error: \(error.message)")
      return false
    }
    return true
  }
}
