/// The pure state machine behind every queue: who holds the turn, and what waits for it.
///
/// A queue has one *turn*. Whoever holds it may run work: either a drainer task that works
/// through the pending entries, or an `enqueueAndWait` caller that found the queue idle and runs
/// its operation in its own task (no hop, no allocation). The machine decides in one lock
/// acquisition where an entry goes, so an entry's place in line is fixed inside the caller's
/// synchronous call.
///
/// The machine never runs anything: its methods return the action the storage must perform
/// outside the lock. That keeps it a value type with exhaustive unit tests.
struct SerialDrainStateMachine<Entry> {
  /// Entries waiting for the turn, oldest first.
  private var pending: [Entry] = []
  /// The largest buffer an idle queue keeps for reuse.
  static var retainedCapacity: Int { 1024 }
  /// True while a drainer or an idle-path caller holds the turn.
  private var turnHeld = false

  /// Whether anyone holds the turn (for tests and diagnostics).
  var isTurnHeld: Bool { turnHeld }
  /// How many entries wait (for tests and diagnostics).
  var pendingCount: Int { pending.count }

  enum EnqueueAction: Equatable {
    /// The queue was idle: the caller must start a drainer, which now owns the turn.
    case startDrainer
    /// Someone holds the turn and will reach the entry in order.
    case none
  }

  /// Appends `entry` behind everything enqueued before it.
  mutating func enqueue(_ entry: Entry) -> EnqueueAction {
    pending.append(entry)
    if turnHeld { return .none }
    turnHeld = true
    return .startDrainer
  }

  /// Takes the turn if nobody holds it and nothing waits; the caller then runs its work inline
  /// and must call ``release()`` when done.
  mutating func acquireIfIdle() -> Bool {
    guard !turnHeld, pending.isEmpty else { return false }
    turnHeld = true
    return true
  }

  enum ReleaseAction: Equatable {
    /// Entries arrived meanwhile: start a drainer, which inherits the turn.
    case startDrainer
    /// The queue is idle again.
    case none
  }

  /// Gives back a turn taken with ``acquireIfIdle()``.
  mutating func release() -> ReleaseAction {
    precondition(turnHeld, "SerialDrainStateMachine.release() without holding the turn")
    if pending.isEmpty {
      turnHeld = false
      return .none
    }
    return .startDrainer
  }

  enum NextAction: Equatable {
    /// Run these entries in order; the drainer keeps the turn.
    case run
    /// Nothing is left: the drainer gave up the turn and must exit.
    case stop
  }

  /// Called by the drainer (which holds the turn) for its next batch.
  ///
  /// The drainer passes in its spent batch: it is emptied and becomes the new `pending` buffer,
  /// so a busy queue swaps two buffers back and forth in O(1) instead of reallocating.
  mutating func nextBatch(into batch: inout [Entry]) -> NextAction {
    precondition(turnHeld, "SerialDrainStateMachine.nextBatch(into:) without holding the turn")
    batch.removeAll(keepingCapacity: true)
    if pending.isEmpty {
      turnHeld = false
      // An idle queue should not pin the memory of its last burst.
      if pending.capacity > Self.retainedCapacity { pending = [] }
      return .stop
    }
    swap(&pending, &batch)
    return .run
  }
}

extension SerialDrainStateMachine: Sendable where Entry: Sendable {}
