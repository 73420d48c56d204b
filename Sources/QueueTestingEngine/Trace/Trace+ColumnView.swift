extension Trace {
  /// A human view of the trace with one column per task, one row per event, for failure
  /// messages:
  ///
  /// ```
  /// step │ t1 (root)        │ t2 'a'
  ///    1 │ ran              │
  ///      │ enqueue fifo1#1  │
  ///    2 │                  │ ran
  ///      │                  │ start fifo1#1
  /// ```
  ///
  /// - Parameters:
  ///   - limit: Show only the last `limit` events (nil: all).
  ///   - width: The width of a task's column; longer cells are cut.
  public func columnView(limit: Int? = nil, width: Int = 18) -> String {
    let shown = limit.map { events(last: $0) } ?? events
    let tasks = Array(Set(shown.map(\.task))).sorted()
    func cell(_ text: String) -> String {
      let cut = text.count > width ? String(text.prefix(width - 1)) + "…" : text
      return cut + String(repeating: " ", count: width - cut.count)
    }
    func header(_ task: Int) -> String {
      if let name = taskNames[task] { return "t\(task) '\(name)'" }
      return task == 1 ? "t1 (root)" : task == 0 ? "no task" : "t\(task)"
    }
    var lines: [String] = []
    if let limit, eventCount > limit {
      lines.append("(last \(limit) of \(eventCount) events)")
    }
    lines.append((["step"] + tasks.map { cell(header($0)) }).joined(separator: " │ "))
    var lastStep = -1
    for event in shown {
      let stepText = event.step == lastStep ? "" : String(event.step)
      lastStep = event.step
      let columns = tasks.map { cell($0 == event.task ? event.kind.summary : "") }
      let padded = String(repeating: " ", count: max(0, 4 - stepText.count)) + stepText
      let line = ([padded] + columns).joined(separator: " │ ")
      lines.append(String(line.reversed().drop { $0 == " " }.reversed()))
    }
    return lines.joined(separator: "\n")
  }
}
