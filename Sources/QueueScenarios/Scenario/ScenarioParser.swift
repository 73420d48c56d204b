import QueueTestingEngine

/// Reads scenario files (format version 1, defined in `Scenarios/README.md`).
///
/// The parser never traps on input: every problem becomes a ``ScenarioParseError`` with its
/// line, column and what was expected, and parsing goes on to report the rest.
package struct ScenarioParser: Sendable {
  /// The format version this parser reads.
  package static let formatVersion = 1

  private let path: String
  private var errors: [ScenarioParseError] = []

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
  private struct Token {
    let text: String
    let column: Int
  }

  private enum Owner {
    case none
    case caller(Int)
    case item(Int)
    /// The steps of a caller or item whose declaration was not understood: they are read for
    /// their own mistakes, and what they name is not reported again (see `mentionedByMistakes`).
    case unreadable
  }

  private mutating func error(_ line: Int, _ column: Int, _ message: String) {
    errors.append(ScenarioParseError(path: path, line: line, column: column, message: message))
  }

  private static func tokens(of line: Substring) -> [Token] {
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

  private static func isName(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
    return text.unicodeScalars.allSatisfy {
      ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "_" || $0 == "-"
    }
  }

  /// The scenario read so far, and what the reading knows beyond it.
  private var scenario = Scenario(
    name: "", path: "", queues: [], callers: [], items: [], checks: Set(Guarantee.allCases), outcome: .completes)
  private var sawDirective: Set<String> = []
  /// The caller or item that indented steps belong to.
  private var owner = Owner.none
  private var queueLines: [String: Int] = [:]
  private var itemLines: [String: Int] = [:]
  private var callerLines: [String: Int] = [:]
  /// The words of lines that were already reported (a declaration or step not understood, and
  /// the steps under it): a queue or item they name is not reported as unknown or never
  /// enqueued, so that one typo is one error, not a cascade.
  private var mentionedByMistakes: Set<String> = []

  /// Notes the words of a line that was reported, from its `from`-th word on.
  private mutating func noteMistake(_ tokens: [Token], from index: Int = 1) {
    for token in tokens.dropFirst(index) { mentionedByMistakes.insert(token.text) }
  }

  private mutating func parse(_ text: String) -> Scenario {
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
  private mutating func parseHeader(_ tokens: [Token], line: Int) -> Bool {
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
  private mutating func parseStepLine(_ tokens: [Token], line: Int) {
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

  /// A line at the left margin: one directive.
  private mutating func parseDirective(_ tokens: [Token], line: Int) {
    let head = tokens[0]
    switch head.text {
    case "scenario":
      error(line, head.column, "duplicate header: 'scenario' appears once, on the first line")
    case "name": parseName(tokens, line: line)
    case "outcome": parseOutcome(tokens, line: line)
    case "check": parseCheck(tokens, line: line)
    case "schedule": parseSchedule(tokens, line: line)
    case "queue": parseQueue(tokens, line: line)
    case "caller": parseCaller(tokens, line: line)
    case "item": parseItem(tokens, line: line)
    default:
      let directives = ["name", "outcome", "check", "schedule", "queue", "caller", "item"]
      error(
        line, head.column,
        "unknown directive '\(head.text)'\(NearestWord.suggestion(for: head.text, among: directives)): expected name, "
          + "outcome, check, schedule, queue, caller or item (steps are indented)"
      )
      noteMistake(tokens)
      owner = .unreadable
    }
  }

  /// `name TEXT`: the scenario's name (the file's name by default).
  private mutating func parseName(_ tokens: [Token], line: Int) {
    let head = tokens[0]
    guard tokens.count >= 2 else {
      error(line, head.column, "expected a name after 'name'")
      return
    }
    if !sawDirective.insert("name").inserted { error(line, head.column, "duplicate 'name' directive") }
    scenario.name = tokens.dropFirst().map(\.text).joined(separator: " ")
  }

  /// `outcome completes|deadlocks|any`: how every run must end.
  private mutating func parseOutcome(_ tokens: [Token], line: Int) {
    let head = tokens[0]
    guard tokens.count == 2, let outcome = Scenario.Outcome(rawValue: tokens[1].text) else {
      error(
        line, tokens.count > 1 ? tokens[1].column : head.column, "expected 'outcome completes|deadlocks|any'")
      return
    }
    if !sawDirective.insert("outcome").inserted { error(line, head.column, "duplicate 'outcome' directive") }
    scenario.outcome = outcome
  }

  /// `check all|none|GUARANTEE...`: the guarantees checked on every run.
  private mutating func parseCheck(_ tokens: [Token], line: Int) {
    let head = tokens[0]
    guard tokens.count >= 2 else {
      error(
        line, head.column,
        "expected guarantees after 'check': all, none, or any of \(Guarantee.allCases.map(\.rawValue).joined(separator: ", "))"
      )
      return
    }
    if !sawDirective.insert("check").inserted { error(line, head.column, "duplicate 'check' directive") }
    var checks = Set<Guarantee>()
    for token in tokens.dropFirst() {
      if token.text == "all" {
        checks.formUnion(Guarantee.allCases)
      } else if token.text == "none" {
        return
      } else if let guarantee = Guarantee(rawValue: token.text) {
        checks.insert(guarantee)
      } else {
        error(
          line, token.column,
          "unknown guarantee '\(token.text)': expected all, none, or any of \(Guarantee.allCases.map(\.rawValue).joined(separator: ", "))"
        )
      }
    }
    scenario.checks = checks
  }

  /// `schedule s1:...`: a regression schedule, run before the series.
  private mutating func parseSchedule(_ tokens: [Token], line: Int) {
    let head = tokens[0]
    guard tokens.count == 2 else {
      error(
        line, head.column, "expected 'schedule \(Schedule.versionPrefix)CHOICES' (as printed by queue-fuzz)")
      return
    }
    do {
      let schedule = try Schedule(parsing: tokens[1].text)
      if let problem = Scenario.problem(with: schedule) {
        self.error(line, tokens[1].column, "invalid schedule: \(problem)")
      } else {
        scenario.regressionSchedules.append(schedule)
      }
    } catch {
      self.error(line, tokens[1].column, "invalid schedule: \(error.message)")
    }
  }

  /// `queue NAME fifo|actor|main`: a queue the steps enqueue on.
  private mutating func parseQueue(_ tokens: [Token], line: Int) {
    let head = tokens[0]
    guard tokens.count == 3 else {
      error(line, head.column, "expected 'queue NAME fifo|actor|main'")
      noteMistake(tokens)
      return
    }
    let name = tokens[1]
    guard isValidName(name, "queue", line: line) else { return }
    guard let kind = QueueItem.QueueKind(rawValue: tokens[2].text), kind != .completion else {
      let kinds = ["fifo", "actor", "main"]
      error(
        line, tokens[2].column,
        "unknown queue kind '\(tokens[2].text)'\(NearestWord.suggestion(for: tokens[2].text, among: kinds)): "
          + "expected fifo, actor or main")
      noteMistake(tokens)
      return
    }
    guard isNew(name, "queue", line: line, declared: queueLines) else { return }
    if kind == .main, let other = scenario.queues.first(where: { $0.kind == .main }) {
      error(
        line, tokens[2].column,
        "a second main queue: '\(other.name)' already is MainActor.queue, and there is only one")
      return
    }
    queueLines[name.text] = line
    scenario.queues.append(Scenario.Queue(name: name.text, kind: kind))
  }

  /// `caller NAME sync|task [priority P]`: code that enqueues, followed by its indented steps.
  private mutating func parseCaller(_ tokens: [Token], line: Int) {
    let head = tokens[0]
    // A caller not understood still owns the steps below it: they are read, not attached.
    owner = .unreadable
    guard tokens.count == 3 || (tokens.count == 5 && tokens[3].text == "priority") else {
      error(line, head.column, "expected 'caller NAME sync|task [priority P]'")
      return
    }
    let name = tokens[1]
    guard isValidName(name, "caller", line: line) else { return }
    guard let context = Scenario.Caller.Context(rawValue: tokens[2].text) else {
      error(
        line, tokens[2].column,
        "unknown caller context '\(tokens[2].text)'\(NearestWord.suggestion(for: tokens[2].text, among: ["sync", "task"])): "
          + "expected sync or task")
      return
    }
    var priority: ScenarioPriority?
    if tokens.count == 5 {
      priority = parsePriority(tokens[4], line: line)
      if priority == nil { return }
      if context == .sync {
        error(
          line, tokens[3].column,
          "a sync caller has no priority of its own: give the priority to a 'task' caller")
        return
      }
    }
    guard isNew(name, "caller", line: line, declared: callerLines) else { return }
    callerLines[name.text] = line
    scenario.callers.append(
      Scenario.Caller(name: name.text, context: context, priority: priority, steps: [], line: line))
    owner = .caller(scenario.callers.count - 1)
  }

  /// `item NAME`: a queue item's operation, followed by its indented steps.
  private mutating func parseItem(_ tokens: [Token], line: Int) {
    let head = tokens[0]
    // An item not understood still owns the steps below it: they are read, not attached.
    owner = .unreadable
    guard tokens.count == 2 else {
      error(line, head.column, "expected 'item NAME' followed by its indented steps")
      noteMistake(tokens)
      return
    }
    let name = tokens[1]
    guard isValidName(name, "item", line: line) else {
      noteMistake(tokens)
      return
    }
    guard isNew(name, "item", line: line, declared: itemLines) else { return }
    itemLines[name.text] = line
    scenario.items.append(Scenario.Item(name: name.text, steps: [], line: line))
    owner = .item(scenario.items.count - 1)
  }

  /// Reports a declared name that is not a valid identifier; true when it is valid.
  private mutating func isValidName(_ name: Token, _ what: String, line: Int) -> Bool {
    guard Self.isName(name.text) else {
      error(
        line, name.column,
        "invalid \(what) name '\(name.text)': use letters, digits, '_' and '-', starting with a letter")
      return false
    }
    return true
  }

  /// Reports a name declared before (in `declared`, by line); true when it is new.
  private mutating func isNew(_ name: Token, _ what: String, line: Int, declared: [String: Int]) -> Bool {
    if let earlier = declared[name.text] {
      error(line, name.column, "\(what) '\(name.text)' is already declared on line \(earlier)")
      return false
    }
    return true
  }

  private static func allowedInSyncCaller(_ action: Scenario.Step.Action) -> Bool {
    switch action {
    case .work, .cancel: true
    case .enqueue(_, _, let style, _): style != .wait
    case .suspend, .yield, .sleep, .throwError: false
    }
  }

  private mutating func parsePriority(_ token: Token, line: Int) -> ScenarioPriority? {
    guard let priority = ScenarioPriority(rawValue: token.text) else {
      let names = ScenarioPriority.allCases.map(\.rawValue)
      error(
        line, token.column,
        "unknown priority '\(token.text)'\(NearestWord.suggestion(for: token.text, among: names)): expected "
          + names.joined(separator: ", ")
      )
      return nil
    }
    return priority
  }

  private mutating func parseStep(_ tokens: [Token], line: Int) -> Scenario.Step? {
    stepTokens[line] = tokens
    let head = tokens[0]
    func expectCount(_ count: Int, _ form: String) -> Bool {
      guard tokens.count == count else {
        let column = tokens.count > count ? tokens[count].column : head.column
        error(line, column, "expected '\(form)'")
        noteMistake(tokens)
        return false
      }
      return true
    }
    switch head.text {
    case "work", "suspend", "yield", "throw":
      guard expectCount(1, head.text) else { return nil }
      let action: Scenario.Step.Action =
        switch head.text {
        case "work": .work
        case "suspend": .suspend
        case "yield": .yield
        default: .throwError
        }
      return Scenario.Step(action: action, line: line)
    case "sleep":
      guard expectCount(2, "sleep DURATION (e.g. 10ms, 2s, 1h)") else { return nil }
      guard let nanoseconds = Self.duration(tokens[1].text) else {
        error(
          line, tokens[1].column,
          "invalid duration '\(tokens[1].text)': expected a whole number with a unit: ns, us, ms, s, m or h")
        return nil
      }
      return Scenario.Step(action: .sleep(nanoseconds: nanoseconds), line: line)
    case "enqueue", "wait", "task":
      let style = Scenario.EnqueueStyle(rawValue: head.text)!
      let form = style == .wait ? "wait QUEUE ITEM" : "\(head.text) QUEUE ITEM [priority P]"
      guard tokens.count == 3 || (style != .wait && tokens.count == 5 && tokens[3].text == "priority") else {
        let column = tokens.count > 3 ? tokens[3].column : head.column
        error(line, column, "expected '\(form)'")
        noteMistake(tokens)
        return nil
      }
      var priority: ScenarioPriority?
      if tokens.count == 5 {
        priority = parsePriority(tokens[4], line: line)
        if priority == nil {
          noteMistake(tokens)
          return nil
        }
      }
      return Scenario.Step(
        action: .enqueue(queue: tokens[1].text, item: tokens[2].text, style: style, priority: priority), line: line)
    case "cancel":
      guard expectCount(2, "cancel ITEM") else { return nil }
      return Scenario.Step(action: .cancel(item: tokens[1].text), line: line)
    default:
      let steps = ["work", "suspend", "yield", "sleep", "enqueue", "wait", "task", "throw", "cancel"]
      error(
        line, head.column,
        "unknown step '\(head.text)'\(NearestWord.suggestion(for: head.text, among: steps)): expected work, suspend, "
          + "yield, sleep, enqueue, wait, task, throw or cancel")
      noteMistake(tokens)
      return nil
    }
  }

  /// Nanoseconds of a duration like `10ms`, or nil.
  static func duration(_ text: String) -> UInt64? {
    let digits = text.prefix { $0.isASCII && $0.isNumber }
    let unit = text.dropFirst(digits.count)
    guard !digits.isEmpty, let value = UInt64(digits) else { return nil }
    let scale: UInt64
    switch unit {
    case "ns": scale = 1
    case "us": scale = 1_000
    case "ms": scale = 1_000_000
    case "s": scale = 1_000_000_000
    case "m": scale = 60_000_000_000
    case "h": scale = 3_600_000_000_000
    default: return nil
    }
    let (product, overflow) = value.multipliedReportingOverflow(by: scale)
    return overflow ? nil : product
  }

  /// Cross-references: queues and items exist, each item is enqueued exactly once, no item
  /// enqueues itself through its own steps, cancels target items run as tasks.
  private mutating func validate(_ scenario: Scenario) {
    // Names are looked up in sets and every check is one pass, so a file of many nested items
    // validates in linear time.
    let queueNames = Set(scenario.queues.map(\.name))
    let itemNames = Set(scenario.items.map(\.name))
    var enqueuedAt: [String: Int] = [:]
    var styles: [String: Scenario.EnqueueStyle] = [:]
    /// The item whose steps enqueue each item (callers are not items).
    var parent: [String: String] = [:]
    let owners: [(name: String?, steps: [Scenario.Step])] =
      scenario.callers.map { (nil, $0.steps) } + scenario.items.map { ($0.name, $0.steps) }
    for (ownerName, steps) in owners {
      for step in steps {
        guard case .enqueue(let queue, let item, let style, _) = step.action else { continue }
        if !queueNames.contains(queue) && !mentionedByMistakes.contains(queue) {
          error(
            step.line, column(1, onLine: step.line),
            "unknown queue '\(queue)': declare it with 'queue \(queue) fifo|actor|main'")
        }
        if !itemNames.contains(item) {
          if mentionedByMistakes.contains(item) { continue }
          error(
            step.line, column(2, onLine: step.line),
            "unknown item '\(item)': declare it with 'item \(item)' and its steps")
        } else if let earlier = enqueuedAt[item] {
          error(
            step.line, column(2, onLine: step.line),
            "item '\(item)' is already enqueued on line \(earlier): each item is enqueued exactly once")
        } else {
          enqueuedAt[item] = step.line
          styles[item] = style
          if let ownerName { parent[item] = ownerName }
        }
      }
    }
    for owner in owners {
      for step in owner.steps {
        guard case .cancel(let item) = step.action else { continue }
        if !itemNames.contains(item) {
          if mentionedByMistakes.contains(item) { continue }
          error(step.line, column(1, onLine: step.line), "unknown item '\(item)' to cancel")
        } else if styles[item] != .task {
          error(
            step.line, column(1, onLine: step.line),
            "cannot cancel '\(item)': only items enqueued with 'task' have a task to cancel")
        }
      }
    }
    for item in scenario.items where enqueuedAt[item.name] == nil && !mentionedByMistakes.contains(item.name) {
      error(
        item.line, 6,
        "item '\(item.name)' is never enqueued: add 'enqueue|wait|task QUEUE \(item.name)' to a caller or item")
    }
    // An item reachable from itself would be enqueued by its own body: impossible to run once.
    // Each item has at most one enqueuer, so those items are exactly the ones on a cycle of
    // enqueuer links; one walk up the links from each item, never revisiting, finds them all.
    var onCycle: Set<String> = []
    var finished: Set<String> = []
    for item in scenario.items where !finished.contains(item.name) {
      var path: [String] = []
      var position: [String: Int] = [:]
      var current: String? = item.name
      while let name = current, !finished.contains(name) {
        if let start = position[name] {
          onCycle.formUnion(path[start...])
          break
        }
        position[name] = path.count
        path.append(name)
        current = parent[name]
      }
      finished.formUnion(path)
    }
    for item in scenario.items where onCycle.contains(item.name) {
      error(item.line, 6, "item '\(item.name)' is enqueued by its own steps (directly or through other items)")
    }
  }

  /// The column of the `index`-th word of a step's line (steps keep only their line number).
  private func column(_ index: Int, onLine line: Int) -> Int {
    guard let tokens = stepTokens[line], tokens.indices.contains(index) else { return 1 }
    return tokens[index].column
  }

  private var stepTokens: [Int: [Token]] = [:]
}
