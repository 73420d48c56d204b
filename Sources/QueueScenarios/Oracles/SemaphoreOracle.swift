import QueueTestingEngine

/// The semaphore guarantees, read from a run's ``SemaphoreEvent``s:
/// - ``Guarantee/semaphorePermits``: no acquisition takes a permit that was never there (more
///   acquisitions than the initial permits and the releases so far), and a run that completed
///   ends with exactly the permits that were not taken (none lost: a cancelled wait took none).
/// - ``Guarantee/semaphoreFIFO``: an acquisition never takes a permit while one that began before
///   it still waits. Acquisitions are recorded when their task goes on, which may be later than
///   the grant, so the check counts: when one completes, the permits given out so far must
///   cover it and every earlier acquisition still waiting. Waits in line when a task was
///   cancelled may have left the line then, and are not counted.
package enum SemaphoreOracle {
  /// The violations of `guarantees` in `events`, at most one per guarantee and semaphore.
  package static func check(
    _ events: [SemaphoreEvent], semaphores: [Scenario.Semaphore], guarantees: Set<Guarantee>
  ) -> [OrderingViolation] {
    var violations: [OrderingViolation] = []
    for semaphore in semaphores {
      var ledger = Ledger(initial: semaphore.value)
      for event in events where event.semaphore == semaphore.name || event.kind == .taskCancelled {
        for violation in ledger.record(event, semaphore: semaphore.name)
        where guarantees.contains(violation.guarantee!)
          && !violations.contains(where: {
            $0.guarantee == violation.guarantee && $0.queue == semaphore.name
          })
        {
          violations.append(violation)
        }
      }
    }
    return violations
  }

  /// One semaphore's permits and waits, event by event.
  struct Ledger {
    let initial: Int
    var releases = 0
    var acquired = 0
    /// Acquisitions that began and have neither completed nor been cancelled, in order, with
    /// their owners; `mayHaveLeft` once a task was cancelled while they waited.
    var waiting: [(id: Int, owner: String, mayHaveLeft: Bool)] = []

    init(initial: Int) { self.initial = initial }

    mutating func record(_ event: SemaphoreEvent, semaphore: String) -> [OrderingViolation] {
      switch event.kind {
      case .began(let id):
        waiting.append((id, event.owner, false))
      case .released:
        releases += 1
      case .taskCancelled:
        for index in waiting.indices { waiting[index].mayHaveLeft = true }
      case .cancelled(let id):
        waiting.removeAll { $0.id == id }
      case .acquired(let id):
        return acquire(id, owner: event.owner, semaphore: semaphore)
      case .ended(let free):
        let expected = initial + releases - acquired
        guard free != expected else { return [] }
        return [
          OrderingViolation(
            guarantee: .semaphorePermits, queue: semaphore, items: [],
            expected: ["\(expected) permits free at the end (\(initial) + \(releases) released - \(acquired) taken)"],
            observed: ["\(free) free: \(free < expected ? "a permit was lost" : "a permit was doubled")"])
        ]
      }
      return []
    }

    private mutating func acquire(_ id: Int, owner: String, semaphore: String) -> [OrderingViolation] {
      var violations: [OrderingViolation] = []
      acquired += 1
      let given = initial + releases
      if acquired > given {
        violations.append(
          OrderingViolation(
            guarantee: .semaphorePermits, queue: semaphore, items: [owner],
            expected: ["at most \(given) permits taken (\(initial) + \(releases) released)"],
            observed: ["\(acquired) taken: \(owner) took a permit that was never there"]))
      }
      guard let position = waiting.firstIndex(where: { $0.id == id }) else { return violations }
      let ahead = waiting[..<position].filter { !$0.mayHaveLeft }
      if acquired + ahead.count > given, let first = ahead.first {
        violations.append(
          OrderingViolation(
            guarantee: .semaphoreFIFO, queue: semaphore, items: [first.owner, owner],
            expected: [first.owner, owner], observed: [owner, first.owner]))
      }
      waiting.remove(at: position)
      return violations
    }
  }
}
