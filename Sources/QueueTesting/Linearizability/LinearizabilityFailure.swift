#if compiler(>=6.3)
  /// A scenario of a ``LinearizabilityCheck`` that failed, made as small as it goes, and why.
  public struct LinearizabilityFailure<Operation: Sendable, Result: Equatable & Sendable>: Sendable {
    /// How the scenario failed.
    public enum Kind: Sendable, Equatable {
      /// No order of the operations that keeps the check's condition gives the results the run
      /// gave (or an operation waits where the model would not).
      case notLinearizable
      /// The run itself failed before its history could be checked: what went wrong (an
      /// expectation in `perform` that failed, the harness's step budget, a stuck job).
      case runFailed(String)
    }

    /// How it failed.
    public var kind: Kind
    /// The failing scenario, made small.
    public var scenario: OperationScenario<Operation>
    /// Which scenario of the check it came from (from 1; 0 for one written by hand).
    public var scenarioNumber: Int
    /// The seed that drew it.
    public var seed: UInt64
    /// How many operations the scenario had before it was made small.
    public var originalOperationCount: Int
    /// The condition the history broke.
    public var condition: ConsistencyCondition
    /// The failing schedule: its run, trace, picture (``ScheduleFailure/traceText(limit:)``) and
    /// replay; nil for a failure found on real threads (see ``realThreadRun``), which no schedule
    /// replays.
    public var schedule: ControlledScheduling.Failure?
    /// Which of the scenario's runs on real threads failed (from 1), for a failure found there
    /// (see ``LinearizabilityCheck/realThreadRuns``).
    public var realThreadRun: Int?
    /// The table of the scenario with each operation's result.
    public var table: [String]
    /// The first step where the model disagrees with the run, in words.
    public var disagreement: String?
    /// The order the operations were called and returned in, one line per stretch of one task.
    public var interleaving: [String]
    /// The environment that reruns this scenario and schedule alone (with the test's filter).
    public var rerunEnvironment: [(variable: String, value: String)]

    /// The failure for a person, at most about 40 lines: what failed, the table, where the model
    /// disagrees, the interleaving, and the line that reruns it. `testID` (the test's full
    /// identifier) adds the `swift test --filter` to that line.
    public func message(testID: String? = nil) -> String {
      var lines: [String] = []
      let smaller =
        originalOperationCount > scenario.operationCount
        ? "; made smaller from \(originalOperationCount) operations to \(scenario.operationCount)" : ""
      let place =
        (scenarioNumber == 0 ? "the scenario written by hand" : "scenario \(scenarioNumber), seed \(seed)") + smaller
      switch kind {
      case .notLinearizable:
        lines.append("\(Self.headline(condition)) (\(place)):")
      case .runFailed(let what):
        lines.append("A run of the check failed before its history could be checked (\(place)): \(what)")
      }
      lines += table.map { "  " + $0 }
      if let disagreement { lines.append(disagreement) }
      if !interleaving.isEmpty {
        lines.append(
          "Interleaving (▶ called, ◀ returned; the hops and awaits between are marked in the attached trace):")
        let shown = interleaving.count > 14 ? Array(interleaving.prefix(13)) : interleaving
        lines += shown.map { "  " + $0 }
        if shown.count < interleaving.count { lines.append("  … \(interleaving.count - shown.count) more lines") }
      }
      if let schedule {
        let foundBy = schedule.run.strategySummary.map { "Found by \($0); " } ?? ""
        lines.append(
          "\(foundBy)controlled schedule \(schedule.scheduleNumber) of the scenario's series (\(schedule.series)), "
            + "\(schedule.run.steps) steps")
      } else if let realThreadRun {
        lines.append(
          "Found on real threads, in run \(realThreadRun) of the scenario there: no schedule replays it, and the "
            + "scenario's controlled schedules all passed (the order came from threads the harness does not steer)")
      }
      let filter = testID.map { " " + ControlledScheduling.replayCommand(testID: $0) } ?? ""
      let variables = rerunEnvironment.map { "\($0.variable)=\(ControlledScheduling.shellQuoted($0.value))" }
      lines.append("Rerun it alone: " + variables.joined(separator: " ") + filter)
      return lines.joined(separator: "\n")
    }

    static func headline(_ condition: ConsistencyCondition) -> String {
      switch condition {
      case .linearizability:
        "Not linearizable: no order of the operations that keeps what returned before what was called gives the "
          + "results the run gave"
      case .sequentialConsistency:
        "Not sequentially consistent: no order of the operations that keeps each task's own order gives the "
          + "results the run gave"
      case .quiescentConsistency:
        "Not quiescently consistent: no order of the operations that keeps the order of their busy periods gives "
          + "the results the run gave"
      }
    }
  }

  extension LinearizabilityFailure {
    /// Who ran a record: a task of the parallel part (from 1), or the initial or final part.
    static func label(task: Int, scenario: OperationScenario<Operation>) -> String {
      if task < scenario.parallel.count { return "task \(task + 1)" }
      return task == scenario.parallel.count ? "initial" : "final"
    }

    /// One operation as a table shows it: `dequeue() → 2`, `… → pending`.
    static func cell(_ record: OperationHistory<Operation, Result>.Record) -> String {
      "\(record.operation) → \(record.outcome.map { "\($0)" } ?? "pending")"
    }

    /// The scenario as a table: the initial part, a column per task with each operation's
    /// result (or "pending", or "not reached" after one that never returned), the final part.
    static func table(
      of scenario: OperationScenario<Operation>, history: OperationHistory<Operation, Result>
    ) -> [String] {
      var byTask: [Int: [OperationHistory<Operation, Result>.Record]] = [:]
      for record in history.records.sorted(by: { $0.invocation < $1.invocation }) {
        byTask[record.task, default: []].append(record)
      }
      func cells(_ task: Int, _ operations: [Operation]) -> [String] {
        let records = byTask[task] ?? []
        return operations.indices.map { index in
          index < records.count ? cell(records[index]) : "\(operations[index]) → not reached"
        }
      }
      var lines: [String] = []
      let tasks = scenario.parallel.count
      if !scenario.initial.isEmpty {
        lines.append("initial: " + cells(tasks, scenario.initial).joined(separator: ", "))
      }
      let columns = scenario.parallel.indices.map { cells($0, scenario.parallel[$0]) }
      let widths = columns.indices.map { task in
        max(columns[task].map(\.count).max() ?? 0, "task \(task + 1)".count)
      }
      func row(_ texts: [String]) -> String {
        zip(texts, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: " | ")
          .trimmingTrailingSpaces()
      }
      lines.append(row(columns.indices.map { "task \($0 + 1)" }))
      for index in 0..<(columns.map(\.count).max() ?? 0) {
        lines.append(row(columns.map { index < $0.count ? $0[index] : "" }))
      }
      if !scenario.final.isEmpty {
        lines.append("final: " + cells(tasks + 1, scenario.final).joined(separator: ", "))
      }
      return lines
    }

    /// The calls and returns in the order they happened, a line per stretch of one task:
    /// `task 2: dequeue() ▶ ◀ 2, size() ▶`.
    static func interleaving(
      of history: OperationHistory<Operation, Result>, scenario: OperationScenario<Operation>
    ) -> [String] {
      var events: [(time: Int, task: Int, text: String)] = []
      for record in history.records {
        events.append((record.invocation, record.task, "\(record.operation) ▶"))
        if let response = record.response, let outcome = record.outcome {
          events.append((response, record.task, "◀ \(outcome)"))
        }
      }
      events.sort { $0.time < $1.time }
      var lines: [(task: Int, texts: [String])] = []
      for event in events {
        if lines.last?.task == event.task {
          lines[lines.count - 1].texts.append(event.text)
        } else {
          lines.append((event.task, [event.text]))
        }
      }
      // Within a line, a call after a return starts a new operation: set it apart with a comma.
      return lines.map { line in
        var text = label(task: line.task, scenario: scenario) + ":"
        for (index, event) in line.texts.enumerated() {
          text += index > 0 && event.hasSuffix("▶") && line.texts[index - 1].hasPrefix("◀") ? ", " : " "
          text += event
        }
        return text
      }
    }
  }

  extension LinearizabilityFailure {
    /// Where the model first disagrees with the run, in words, from the checker's violation: an
    /// operation whose result no order gives after the longest order the model accepted, or one
    /// that never returned where the model would not wait.
    static func disagreement<Model: SequentialModel>(
      _ violation: LinearizabilityViolation, history: OperationHistory<Operation, Result>, model: Model,
      scenario: OperationScenario<Operation>
    ) -> String where Model.Operation == Operation, Model.Result == Result {
      let records = history.records
      var state = model
      for index in violation.longestPrefix {
        state = LinearizabilityChecker<Model>.state(after: records[index], from: state) ?? state
      }
      let prefix = violation.longestPrefix.map { "\(records[$0].operation)" }
      let after =
        prefix.isEmpty
        ? "from its initial state"
        : "after "
          + (prefix.count > 6
            ? prefix.prefix(5).joined(separator: ", ") + ", … (\(prefix.count) in all)"
            : prefix.joined(separator: ", "))
      func says(_ step: ModelStep<Result>) -> String {
        switch step {
        case .returns(let value): "returns \(value)"
        case .throws(let error): "throws \(error)"
        case .waits: "would wait"
        case .cancellable(let step): says(step) + " (or, cancelled, throws CancellationError)"
        }
      }
      func happened(_ outcome: OperationOutcome<Result>?) -> String {
        switch outcome {
        case .returned(let value)?: "returned \(value)"
        case .threw(let error)?: "threw \(error)"
        case nil: "did not return"
        }
      }
      if let index = violation.candidates.first {
        var copy = state
        let record = records[index]
        let who = label(task: record.task, scenario: scenario)
        return
          "The model first disagrees: \(record.operation) (\(who)) \(happened(record.outcome)); \(after) the model "
          + "\(says(copy.apply(record.operation)))."
      }
      if let pending = records.first(where: { record in
        guard record.isPending else { return false }
        var copy = state
        return !copy.apply(record.operation).waits
      }) {
        var copy = state
        let who = label(task: pending.task, scenario: scenario)
        return
          "The model first disagrees: \(pending.operation) (\(who)) never returned, but \(after) the model would "
          + "not wait there: it \(says(copy.apply(pending.operation))) (a lost wake-up)."
      }
      return "The model accepts no order of these results."
    }
  }

  extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
      var text = self
      while text.last == " " { text.removeLast() }
      return text
    }
  }
#endif
