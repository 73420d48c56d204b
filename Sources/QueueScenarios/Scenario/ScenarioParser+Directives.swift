import QueueTestingEngine

// The directives of a scenario file: its name, outcome, checks, schedules, queues, callers and items.
extension ScenarioParser {
  /// A line at the left margin: one directive.
  mutating func parseDirective(_ tokens: [Token], line: Int) {
    let head = tokens[0]
    switch head.text {
    case "scenario":
      error(line, head.column, "duplicate header: 'scenario' appears once, on the first line")
    case "name": parseName(tokens, line: line)
    case "outcome": parseOutcome(tokens, line: line)
    case "check": parseCheck(tokens, line: line)
    case "schedule": parseSchedule(tokens, line: line)
    case "queue": parseQueue(tokens, line: line)
    case "semaphore": parseSemaphore(tokens, line: line)
    case "caller": parseCaller(tokens, line: line)
    case "item": parseItem(tokens, line: line)
    default:
      let directives = ["name", "outcome", "check", "schedule", "queue", "semaphore", "caller", "item"]
      error(
        line, head.column,
        "unknown directive '\(head.text)'\(NearestWord.suggestion(for: head.text, among: directives)): expected name, "
          + "outcome, check, schedule, queue, semaphore, caller or item (steps are indented)"
      )
      noteMistake(tokens)
      owner = .unreadable
    }
  }

  /// `name TEXT`: the scenario's name (the file's name by default).
  mutating func parseName(_ tokens: [Token], line: Int) {
    let head = tokens[0]
    guard tokens.count >= 2 else {
      error(line, head.column, "expected a name after 'name'")
      return
    }
    if !sawDirective.insert("name").inserted { error(line, head.column, "duplicate 'name' directive") }
    scenario.name = tokens.dropFirst().map(\.text).joined(separator: " ")
  }

  /// `outcome completes|deadlocks|any`: how every run must end.
  mutating func parseOutcome(_ tokens: [Token], line: Int) {
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
  mutating func parseCheck(_ tokens: [Token], line: Int) {
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
  mutating func parseSchedule(_ tokens: [Token], line: Int) {
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

  /// `queue NAME fifo|actor|main` or `queue NAME concurrent WIDTH`: a queue the steps enqueue on.
  mutating func parseQueue(_ tokens: [Token], line: Int) {
    let head = tokens[0]
    let form = "expected 'queue NAME fifo|actor|main' or 'queue NAME concurrent WIDTH'"
    guard tokens.count == 3 || (tokens.count == 4 && tokens[2].text == "concurrent") else {
      error(line, tokens.count > 3 ? tokens[3].column : head.column, form)
      noteMistake(tokens)
      return
    }
    let name = tokens[1]
    guard isValidName(name, "queue", line: line) else { return }
    guard let kind = QueueItem.QueueKind(rawValue: tokens[2].text), kind != .completion else {
      let kinds = ["fifo", "actor", "main", "concurrent"]
      error(
        line, tokens[2].column,
        "unknown queue kind '\(tokens[2].text)'\(NearestWord.suggestion(for: tokens[2].text, among: kinds)): "
          + "expected fifo, actor, main or concurrent")
      noteMistake(tokens)
      return
    }
    var width: Int?
    if kind == .concurrent {
      guard tokens.count == 4, let value = Int(tokens[3].text), (1...64).contains(value) else {
        error(
          line, tokens.count == 4 ? tokens[3].column : tokens[2].column,
          "expected the width of a concurrent queue, a whole number from 1 to 64: 'queue NAME concurrent WIDTH'")
        noteMistake(tokens)
        return
      }
      width = value
    }
    guard isNew(name, "queue", line: line, declared: queueLines) else { return }
    if kind == .main, let other = scenario.queues.first(where: { $0.kind == .main }) {
      error(
        line, tokens[2].column,
        "a second main queue: '\(other.name)' already is MainActor.queue, and there is only one")
      return
    }
    queueLines[name.text] = line
    scenario.queues.append(Scenario.Queue(name: name.text, kind: kind, width: width))
  }

  /// `semaphore NAME VALUE`: an `AsyncSemaphore` with VALUE permits at first.
  mutating func parseSemaphore(_ tokens: [Token], line: Int) {
    let head = tokens[0]
    guard tokens.count == 3 else {
      error(line, tokens.count > 3 ? tokens[3].column : head.column, "expected 'semaphore NAME VALUE'")
      noteMistake(tokens)
      return
    }
    let name = tokens[1]
    guard isValidName(name, "semaphore", line: line) else { return }
    guard let value = Int(tokens[2].text), (0...64).contains(value) else {
      error(line, tokens[2].column, "expected the semaphore's permits at first, a whole number from 0 to 64")
      return
    }
    guard isNew(name, "semaphore", line: line, declared: semaphoreLines) else { return }
    semaphoreLines[name.text] = line
    scenario.semaphores.append(Scenario.Semaphore(name: name.text, value: value))
  }

  /// `caller NAME sync|task [priority P]`: code that enqueues, followed by its indented steps.
  mutating func parseCaller(_ tokens: [Token], line: Int) {
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
  mutating func parseItem(_ tokens: [Token], line: Int) {
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
  mutating func isValidName(_ name: Token, _ what: String, line: Int) -> Bool {
    guard Self.isName(name.text) else {
      error(
        line, name.column,
        "invalid \(what) name '\(name.text)': use letters, digits, '_' and '-', starting with a letter")
      return false
    }
    return true
  }

  /// Reports a name declared before (in `declared`, by line); true when it is new.
  mutating func isNew(_ name: Token, _ what: String, line: Int, declared: [String: Int]) -> Bool {
    if let earlier = declared[name.text] {
      error(line, name.column, "\(what) '\(name.text)' is already declared on line \(earlier)")
      return false
    }
    return true
  }

  static func allowedInSyncCaller(_ action: Scenario.Step.Action) -> Bool {
    switch action {
    case .work, .cancel, .release: true
    case .enqueue(_, _, let style, _, _): style != .wait
    case .acquire: false
    case .suspend, .yield, .sleep, .throwError: false
    }
  }

  mutating func parsePriority(_ token: Token, line: Int) -> ScenarioPriority? {
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

}
