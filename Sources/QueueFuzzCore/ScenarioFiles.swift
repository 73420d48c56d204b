import Foundation
import QueueTestingEngine

/// Finds and reads scenario files.
enum ScenarioFiles {
  /// The `*.scenario` files at `path` (a file, or a folder searched recursively), sorted; nil
  /// when nothing exists there.
  static func find(under path: String) -> [String]? {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
    guard isDirectory.boolValue else { return [path] }
    let enumerator = FileManager.default.enumerator(atPath: path)
    var found: [String] = []
    while let relative = enumerator?.nextObject() as? String {
      if relative.hasSuffix(".scenario") { found.append((path as NSString).appendingPathComponent(relative)) }
    }
    return found.sorted()
  }

  /// Reads and parses one file; errors are lines in the `path:line:column: error:` form.
  static func load(_ path: String) -> Result<Scenario, ScenarioParseErrors> {
    guard let data = FileManager.default.contents(atPath: path) else {
      return .failure(
        ScenarioParseErrors(errors: [.init(path: path, line: 1, column: 1, message: "cannot read the file")]))
    }
    guard let text = String(data: data, encoding: .utf8) else {
      return .failure(
        ScenarioParseErrors(errors: [.init(path: path, line: 1, column: 1, message: "the file is not UTF-8 text")]))
    }
    do {
      return .success(try ScenarioParser.parse(text, path: path))
    } catch {
      return .failure(error)
    }
  }

  /// Reads and parses one file, printing its errors (the `path:line:column: error:` lines) on
  /// failure; nil then, and the command exits with status 2.
  static func loadOrReport(_ path: String, console: FuzzConsole) -> Scenario? {
    switch load(path) {
    case .success(let scenario):
      return scenario
    case .failure(let errors):
      for error in errors.errors { console.err(error.description) }
      return nil
    }
  }
}
