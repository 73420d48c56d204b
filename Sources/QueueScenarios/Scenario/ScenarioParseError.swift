import QueueTestingEngine

/// One problem in a scenario file, at a line and column (both from 1).
package struct ScenarioParseError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file, as given to the parser.
  package var path: String
  /// The line, from 1.
  package var line: Int
  /// The column, from 1.
  package var column: Int
  /// What was wrong and what was expected.
  package var message: String

  /// Creates an error. Control characters in `message` (which quotes the file's own text) are
  /// shown escaped (`\u{1B}`), so that a message never drives the terminal it is printed on.
  package init(path: String, line: Int, column: Int, message: String) {
    self.path = path
    self.line = line
    self.column = column
    self.message = Self.visible(message)
  }

  /// `text` with every control character written as `\u{XX}`.
  static func visible(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
    var shown = ""
    for scalar in text.unicodeScalars {
      if scalar.properties.generalCategory == .control {
        shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        shown.unicodeScalars.append(scalar)
      }
    }
    return shown
  }

  /// `path:line:column: error: message`, the form compilers use (editors jump to it).
  package var description: String { "\(Self.visible(path)):\(line):\(column): error: \(message)" }
}

/// Every problem found in a scenario file, in file order.
package struct ScenarioParseErrors: Error, Equatable, Sendable, CustomStringConvertible {
  /// The problems.
  package var errors: [ScenarioParseError]

  /// Creates the list.
  package init(errors: [ScenarioParseError]) {
    self.errors = errors
  }

  /// One line per problem.
  package var description: String { errors.map(\.description).joined(separator: "\n") }
}
