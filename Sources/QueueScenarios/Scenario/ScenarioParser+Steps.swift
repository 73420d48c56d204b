import QueueTestingEngine

// A step line of a scenario file, and the durations it names.
extension ScenarioParser {
  mutating func parseStep(_ tokens: [Token], line: Int) -> Scenario.Step? {
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
      return parseEnqueue(tokens, line: line)
    case "acquire":
      guard tokens.count == 2 || (tokens.count == 3 && tokens[2].text == "unless-cancelled") else {
        let column = tokens.count > 2 ? tokens[2].column : head.column
        error(line, column, "expected 'acquire SEMAPHORE [unless-cancelled]'")
        noteMistake(tokens)
        return nil
      }
      return Scenario.Step(action: .acquire(semaphore: tokens[1].text, unlessCancelled: tokens.count == 3), line: line)
    case "release":
      guard expectCount(2, "release SEMAPHORE") else { return nil }
      return Scenario.Step(action: .release(semaphore: tokens[1].text), line: line)
    case "cancel":
      guard expectCount(2, "cancel ITEM") else { return nil }
      return Scenario.Step(action: .cancel(item: tokens[1].text), line: line)
    default:
      let steps = [
        "work", "suspend", "yield", "sleep", "enqueue", "wait", "task", "throw", "cancel", "acquire", "release",
      ]
      error(
        line, head.column,
        "unknown step '\(head.text)'\(NearestWord.suggestion(for: head.text, among: steps)): expected work, suspend, "
          + "yield, sleep, enqueue, wait, task, throw, cancel, acquire or release")
      noteMistake(tokens)
      return nil
    }
  }

  /// `enqueue|task QUEUE ITEM [priority P] [barrier]` or `wait QUEUE ITEM [barrier]`.
  mutating func parseEnqueue(_ tokens: [Token], line: Int) -> Scenario.Step? {
    let head = tokens[0]
    let style = Scenario.EnqueueStyle(rawValue: head.text)!
    let form = style == .wait ? "wait QUEUE ITEM [barrier]" : "\(head.text) QUEUE ITEM [priority P] [barrier]"
    guard tokens.count >= 3 else {
      error(line, head.column, "expected '\(form)'")
      noteMistake(tokens)
      return nil
    }
    var priority: ScenarioPriority?
    var barrier = false
    var index = 3
    while index < tokens.count {
      let token = tokens[index]
      if token.text == "barrier" && !barrier {
        barrier = true
        index += 1
      } else if token.text == "priority" && style != .wait && priority == nil && index + 1 < tokens.count {
        priority = parsePriority(tokens[index + 1], line: line)
        if priority == nil {
          noteMistake(tokens)
          return nil
        }
        index += 2
      } else {
        error(line, token.column, "expected '\(form)'")
        noteMistake(tokens)
        return nil
      }
    }
    return Scenario.Step(
      action: .enqueue(queue: tokens[1].text, item: tokens[2].text, style: style, priority: priority, barrier: barrier),
      line: line)
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

}
