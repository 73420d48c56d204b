import QueueTestingEngine

/// Reads scenario files (format version 1, defined in `Scenarios/README.md`).
///
/// The parser never traps on input: every problem becomes a ``ScenarioParseError`` with its
/// line, column and what was expected, and parsing goes on to report the rest.
package struct ScenarioParser: Sendable {
  /// The format version this parser reads.
  package static let formatVersion = 1

  let path: String
  var errors: [ScenarioParseError] = []

  private init(path: String) {
    self.path = path
  }

  /// Parses `text`; `path` names the file in errors and gives the default scenario name.
  /// - Throws: ``ScenarioParseErrors`` listing every problem.
  package static func parse(_ text: String, path: String) throws(ScenarioParseErrors) -> Scenario {
    var parser = ScenarioParser(path: path)
    let scenario = parser.parse(text)
    if !parser.errors.isEmpty { throw ScenarioParseErrors(errors: parser.errors) }
    return scenario
  }

  /// A word of a line and the column where it starts.
  struct Token {
    let text: String
    let column: Int
  }

  enum Owner {
    case none
    case caller(Int)
    case item(Int)
    /// The steps of a caller or item whose declaration was not understood: they are read for
    /// their own mistakes, and what they name is not reported again (see `mentionedByMistakes`).
    case unreadable
  }

  mutating func error(_ line: Int, _ column: Int, _ message: String) {
    errors.append(ScenarioParseError(path: path, line: line, column: column, message: message))
  }

  static func tokens(of line: Substring) -> [Token] {
    var tokens: [Token] = []
    var current = ""
    var start = 0
    for (offset, character) in line.enumerated() {
      if character == "#" { break }
      if character == " " || character == "\t" {
        if !current.isEmpty { tokens.append(Token(text: current, column: start + 1)) }
        current = ""
      } else {
        if current.isEmpty { start = offset }
        current.append(character)
      }
    }
    if !current.isEmpty { tokens.append(Token(text: current, column: start + 1)) }
    return tokens
  }

  static func isName(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
    return text.unicodeScalars.allSatisfy {
      ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "_" || $0 == "-"
    }
  }

  /// The scenario read so far, and what the reading knows beyond it.
  var scenario = Scenario(
    name: "", path: "", queues: [], callers: [], items: [], checks: Set(Guarantee.allCases), outcome: .completes)
  var sawDirective: Set<String> = []
  /// The caller or item that indented steps belong to.
  var owner = Owner.none
  var queueLines: [String: Int] = [:]
  var semaphoreLines: [String: Int] = [:]
  var itemLines: [String: Int] = [:]
  var callerLines: [String: Int] = [:]
  /// The words of lines that were already reported (a declaration or step not understood, and
  /// the steps under it): a queue or item they name is not reported as unknown or never
  /// enqueued, so that one typo is one error, not a cascade.
  var mentionedByMistakes: Set<String> = []

  /// Notes the words of a line that was reported, from its `from`-th word on.
  mutating func noteMistake(_ tokens: [Token], from index: Int = 1) {
    for token in tokens.dropFirst(index) { mentionedByMistakes.insert(token.text) }
  }

  mutating func parse(_ text: String) -> Scenario {
    let defaultName = path.split(separator: "/").last.map { String($0.split(separator: ".").first ?? $0) } ?? path
    scenario.name = defaultName
    scenario.path = path
    var sawHeader = false
    var line = 0
    // "\r\n" is one Character in Swift (a grapheme cluster), so a split on "\n" alone would
    // leave Windows lines unsplit; any of LF, CRLF and a lone CR ends a line, mixed or not.
    for text in text.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
    {
      line += 1
      let tokens = Self.tokens(of: text)
      guard let head = tokens.first else { continue }
      if !sawHeader {
        guard parseHeader(tokens, line: line) else { return scenario }
        sawHeader = true
      } else if head.column > 1 {
        parseStepLine(tokens, line: line)
      } else {
        owner = .none
        parseDirective(tokens, line: line)
      }
    }
    if !sawHeader {
      error(1, 1, "empty scenario: expected the header 'scenario \(Self.formatVersion)'")
      return scenario
    }
    validate(scenario)
    return scenario
  }

  /// The first line, `scenario 1`; false (with the error) when it is anything else, which ends
  /// the reading.
  mutating func parseHeader(_ tokens: [Token], line: Int) -> Bool {
    let head = tokens[0]
    if head.column > 1 || head.text != "scenario" {
      error(
        line, head.column,
        "expected the header 'scenario \(Self.formatVersion)' before anything else, found '\(head.text)'")
      return false
    }
    guard tokens.count == 2 else {
      error(
        line, head.column,
        "expected 'scenario \(Self.formatVersion)': the header takes exactly one version number")
      return false
    }
    guard Int(tokens[1].text) == Self.formatVersion else {
      error(
        line, tokens[1].column,
        "unsupported format version '\(tokens[1].text)': this parser reads version \(Self.formatVersion)")
      return false
    }
    return true
  }

  /// An indented line: a step of the caller or item declared above it.
  mutating func parseStepLine(_ tokens: [Token], line: Int) {
    let head = tokens[0]
    let step = parseStep(tokens, line: line)
    switch owner {
    case .unreadable:
      noteMistake(tokens)
    case .none:
      error(
        line, head.column,
        "indented step '\(head.text)' outside a caller or item: declare 'caller NAME sync|task' or 'item NAME' first"
      )
    case .caller(let index):
      if let step {
        if scenario.callers[index].context == .sync, !Self.allowedInSyncCaller(step.action) {
          error(
            line, head.column,
            "step '\(head.text)' suspends, which a sync caller cannot do: use a 'task' caller, or 'enqueue'/'task'/'cancel'/'work'"
          )
        } else if step.action == .throwError {
          error(line, head.column, "'throw' is for items, not callers")
        } else {
          scenario.callers[index].steps.append(step)
        }
      }
    case .item(let index):
      if let step {
        if scenario.items[index].steps.last?.action == .throwError {
          error(
            line, head.column,
            "step '\(head.text)' after 'throw' never runs: 'throw' must be an item's last step")
        } else {
          scenario.items[index].steps.append(step)
        }
      }
    }
  }

  /// The column of the `index`-th word of a step's line (steps keep only their line number).
  func column(_ index: Int, onLine line: Int) -> Int {
    guard let tokens = stepTokens[line], tokens.indices.contains(index) else { return 1 }
    return tokens[index].column
  }

  var stepTokens: [Int: [Token]] = [:]
}
