/// Makes a failing scenario as small as it will go while it still fails: drops operations (the
/// parallel part's first, then the initial and final parts'), then tasks left empty, then
/// shrinks arguments, then, when no single operation can go, two operations at once (a bug whose
/// operations must balance, such as waits and signals), and goes round again until nothing
/// changes.
///
/// What it returns still fails, and no single operation can be removed from it, nor any argument
/// shrunk by `shrink`, with the result still failing (it is minimal one step at a time, not the
/// smallest failing scenario there is). `fails` is asked at most ``maximumAttempts`` times; past
/// them the smallest failing scenario so far is returned. The edits it kept, in order, make the
/// same scenario again from the first (``ScenarioEdit/apply(_:to:shrink:)``), so a failure can
/// name its minimal scenario in one short line.
package struct ScenarioMinimizer<Operation: Sendable>: Sendable {
  /// The most times `fails` may be asked.
  package var maximumAttempts: Int

  package init(maximumAttempts: Int = 500) {
    self.maximumAttempts = maximumAttempts
  }

  /// `scenario` made minimal. `fails` says whether a scenario still fails (it runs it, under as
  /// many schedules as it likes); `shrink` gives smaller versions of an operation's arguments,
  /// smallest first (none: it cannot shrink).
  package func minimize(
    _ scenario: OperationScenario<Operation>, fails: (OperationScenario<Operation>) async -> Bool,
    shrink: (Operation) -> [Operation] = { _ in [] }
  ) async -> (scenario: OperationScenario<Operation>, attempts: Int, edits: [ScenarioEdit]) {
    var current = scenario
    var attempts = 0
    var edits: [ScenarioEdit] = []
    func tryCandidate(_ candidate: OperationScenario<Operation>, _ edit: ScenarioEdit...) async -> Bool {
      guard attempts < maximumAttempts else { return false }
      attempts += 1
      guard await fails(candidate) else { return false }
      current = candidate
      edits += edit
      return true
    }
    var changed = true
    while changed && attempts < maximumAttempts {
      changed = false
      // Operations of the parallel part, from the last task's last one back.
      for task in current.parallel.indices.reversed() {
        var position = current.parallel[task].count - 1
        while position >= 0 {
          var candidate = current
          candidate.parallel[task].remove(at: position)
          if await tryCandidate(candidate, .remove(.parallel(task), position)) { changed = true }
          position -= 1
        }
      }
      for (part, path) in [(ScenarioEdit.Part.initial, \OperationScenario<Operation>.initial), (.final, \.final)] {
        var position = current[keyPath: path].count - 1
        while position >= 0 {
          var candidate = current
          candidate[keyPath: path].remove(at: position)
          if await tryCandidate(candidate, .remove(part, position)) { changed = true }
          position -= 1
        }
      }
      // Tasks left with nothing to do (each is still a task of the run, so ask).
      if current.parallel.contains(where: \.isEmpty) {
        var candidate = current
        candidate.parallel.removeAll { $0.isEmpty }
        if await tryCandidate(candidate, .removeEmptyTasks) { changed = true }
      }
      // Arguments, each to the smallest version that still fails.
      for task in current.parallel.indices {
        for position in current.parallel[task].indices {
          for (choice, smaller) in shrink(current.parallel[task][position]).enumerated() {
            var candidate = current
            candidate.parallel[task][position] = smaller
            if await tryCandidate(candidate, .shrink(.parallel(task), position, choice)) {
              changed = true
              break
            }
          }
        }
      }
      for (part, path) in [(ScenarioEdit.Part.initial, \OperationScenario<Operation>.initial), (.final, \.final)] {
        for position in current[keyPath: path].indices {
          for (choice, smaller) in shrink(current[keyPath: path][position]).enumerated() {
            var candidate = current
            candidate[keyPath: path][position] = smaller
            if await tryCandidate(candidate, .shrink(part, position, choice)) {
              changed = true
              break
            }
          }
        }
      }
      // Two operations at once, when no single one can go: a bug may need its operations to
      // balance (a cancelled wait and a signal beside a wait and a signal), so that dropping
      // either of a pair breaks it and dropping both does not.
      if !changed {
        let places = current.places
        search: for first in places.indices {
          for second in places.indices where second > first {
            // The later place goes first, so that the earlier one's position still holds.
            let (later, earlier) = (places[second], places[first])
            guard let candidate = current.removing(later)?.removing(earlier) else { continue }
            if await tryCandidate(
              candidate, .remove(later.part, later.position), .remove(earlier.part, earlier.position))
            {
              changed = true
              break search
            }
          }
        }
      }
    }
    return (current, attempts, edits)
  }
}

extension OperationScenario {
  /// Every operation's place, part by part and in order within each: an earlier place never
  /// comes after a later one of the same part.
  fileprivate var places: [(part: ScenarioEdit.Part, position: Int)] {
    initial.indices.map { (ScenarioEdit.Part.initial, $0) }
      + parallel.indices.flatMap { task in parallel[task].indices.map { (ScenarioEdit.Part.parallel(task), $0) } }
      + final.indices.map { (ScenarioEdit.Part.final, $0) }
  }

  /// The scenario without the operation at `place`.
  fileprivate func removing(_ place: (part: ScenarioEdit.Part, position: Int)) -> OperationScenario? {
    ScenarioEdit.apply([.remove(place.part, place.position)], to: self, shrink: { _ in [] })
  }
}
