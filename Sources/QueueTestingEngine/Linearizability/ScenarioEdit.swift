/// One step of a scenario's minimization: an operation removed, tasks left empty removed, or an
/// operation's arguments shrunk. The steps a minimization kept, applied in order to the scenario
/// it started from, give the minimal scenario again; their text form is short enough for a
/// failure's rerun line (`p1.0-,i2-,e,p0.1~1`).
package enum ScenarioEdit: Equatable, Sendable, CustomStringConvertible {
  /// A part of a scenario: the initial part, a task's column of the parallel part, or the final part.
  package enum Part: Equatable, Sendable {
    case initial
    case parallel(Int)
    case final
  }

  /// The operation at this position of the part was removed.
  case remove(Part, Int)
  /// The parallel part's empty columns were removed.
  case removeEmptyTasks
  /// The operation at this position of the part was replaced by the shrunk version at this
  /// index of what `shrink` gave for it.
  case shrink(Part, Int, Int)

  /// `i3-` (remove), `e` (empty tasks), `p1.0~2` (shrink).
  package var description: String {
    switch self {
    case .remove(let part, let position): "\(Self.text(part))\(position)-"
    case .removeEmptyTasks: "e"
    case .shrink(let part, let position, let choice): "\(Self.text(part))\(position)~\(choice)"
    }
  }

  private static func text(_ part: Part) -> String {
    switch part {
    case .initial: "i"
    case .parallel(let task): "p\(task)."
    case .final: "f"
    }
  }

  /// The edits a comma-separated text form gives, or nil if it is not one.
  package static func edits(parsing text: Substring) -> [ScenarioEdit]? {
    guard !text.isEmpty else { return [] }
    var edits: [ScenarioEdit] = []
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      if item == "e" {
        edits.append(.removeEmptyTasks)
        continue
      }
      var rest = item[...]
      let part: Part
      switch rest.first {
      case "i":
        part = .initial
        rest = rest.dropFirst()
      case "f":
        part = .final
        rest = rest.dropFirst()
      case "p":
        guard let dot = rest.firstIndex(of: "."), let task = Int(rest[rest.index(after: rest.startIndex)..<dot]) else {
          return nil
        }
        part = .parallel(task)
        rest = rest[rest.index(after: dot)...]
      default:
        return nil
      }
      if rest.hasSuffix("-"), let position = Int(rest.dropLast()) {
        edits.append(.remove(part, position))
      } else if let tilde = rest.firstIndex(of: "~"), let position = Int(rest[..<tilde]),
        let choice = Int(rest[rest.index(after: tilde)...])
      {
        edits.append(.shrink(part, position, choice))
      } else {
        return nil
      }
    }
    return edits
  }

  /// `edits` applied in order to `scenario`, or nil where one does not fit it (a position past
  /// its part's end, a shrink choice `shrink` does not offer).
  package static func apply<Operation>(
    _ edits: [ScenarioEdit], to scenario: OperationScenario<Operation>, shrink: (Operation) -> [Operation]
  ) -> OperationScenario<Operation>? {
    var current = scenario
    for edit in edits {
      switch edit {
      case .removeEmptyTasks:
        current.parallel.removeAll { $0.isEmpty }
      case .remove(let part, let position):
        guard var operations = current.operations(in: part), operations.indices.contains(position) else { return nil }
        operations.remove(at: position)
        current.setOperations(operations, in: part)
      case .shrink(let part, let position, let choice):
        guard var operations = current.operations(in: part), operations.indices.contains(position) else { return nil }
        let smaller = shrink(operations[position])
        guard smaller.indices.contains(choice) else { return nil }
        operations[position] = smaller[choice]
        current.setOperations(operations, in: part)
      }
    }
    return current
  }
}

extension OperationScenario {
  fileprivate func operations(in part: ScenarioEdit.Part) -> [Operation]? {
    switch part {
    case .initial: initial
    case .final: final
    case .parallel(let task): parallel.indices.contains(task) ? parallel[task] : nil
    }
  }

  fileprivate mutating func setOperations(_ operations: [Operation], in part: ScenarioEdit.Part) {
    switch part {
    case .initial: initial = operations
    case .final: final = operations
    case .parallel(let task): parallel[task] = operations
    }
  }
}
