import Foundation
import QueueScenarios
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
      let (line, column) = firstInvalidUTF8(in: data)
      return .failure(
        ScenarioParseErrors(errors: [
          .init(
            path: path, line: line, column: column,
            message: "the file is not UTF-8 text: this byte starts no UTF-8 character")
        ]))
    }
    do {
      return .success(try ScenarioParser.parse(text, path: path))
    } catch {
      return .failure(error)
    }
  }

  /// The line and column (in characters, from 1) of the first byte of `data` that is not UTF-8.
  static func firstInvalidUTF8(in data: Data) -> (line: Int, column: Int) {
    var parser = Unicode.UTF8.ForwardParser()
    var bytes = data.makeIterator()
    var line = 1
    var column = 1
    while true {
      switch parser.parseScalar(from: &bytes) {
      case .valid(let encoded):
        if Unicode.UTF8.decode(encoded) == "\n" {
          line += 1
          column = 1
        } else {
          column += 1
        }
      case .error, .emptyInput:
        return (line, column)
      }
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
