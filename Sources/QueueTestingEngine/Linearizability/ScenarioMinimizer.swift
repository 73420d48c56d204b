/// Makes a failing scenario as small as it will go while it still fails: drops operations (the
/// parallel part's first, then the initial and final parts'), then tasks left empty, then
/// shrinks arguments, and goes round again until nothing changes.
///
/// What it returns still fails, and no single operation can be removed from it, nor any argument
/// shrunk by `shrink`, with the result still failing (it is minimal one step at a time, not the
/// smallest failing scenario there is). `fails` is asked at most ``maximumAttempts`` times; past
/// them the smallest failing scenario so far is returned.
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
    _ scenario: OperationScenario<Operation>, fails: (OperationScenario<Operation>) -> Bool,
    shrink: (Operation) -> [Operation] = { _ in [] }
  ) -> (scenario: OperationScenario<Operation>, attempts: Int) {
    var current = scenario
    var attempts = 0
    func tryCandidate(_ candidate: OperationScenario<Operation>) -> Bool {
      guard attempts < maximumAttempts else { return false }
      attempts += 1
      guard fails(candidate) else { return false }
      current = candidate
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
          if tryCandidate(candidate) { changed = true }
          position -= 1
        }
      }
      for part in [\OperationScenario<Operation>.initial, \.final] {
        var position = current[keyPath: part].count - 1
        while position >= 0 {
          var candidate = current
          candidate[keyPath: part].remove(at: position)
          if tryCandidate(candidate) { changed = true }
          position -= 1
        }
      }
      // Tasks left with nothing to do (each is still a task of the run, so ask).
      if current.parallel.contains(where: \.isEmpty) {
        var candidate = current
        candidate.parallel.removeAll { $0.isEmpty }
        if tryCandidate(candidate) { changed = true }
      }
      // Arguments, each to the smallest version that still fails.
      for task in current.parallel.indices {
        for position in current.parallel[task].indices {
          for smaller in shrink(current.parallel[task][position]) {
            var candidate = current
            candidate.parallel[task][position] = smaller
            if tryCandidate(candidate) {
              changed = true
              break
            }
          }
        }
      }
      for part in [\OperationScenario<Operation>.initial, \.final] {
        for position in current[keyPath: part].indices {
          for smaller in shrink(current[keyPath: part][position]) {
            var candidate = current
            candidate[keyPath: part][position] = smaller
            if tryCandidate(candidate) {
              changed = true
              break
            }
          }
        }
      }
    }
    return (current, attempts)
  }
}
