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
@usableFromInline
struct SerialDrainStateMachine<Entry> {
  /// Entries waiting for the turn, oldest first, in chunks of at most ``chunkCapacity``.
  ///
  /// Chunks rather than one growing array: a burst of a million enqueues never reallocates and
  /// copies a large buffer, and the drainer frees each chunk as soon as it has run it, so memory
  /// follows the backlog instead of its high-water mark.
  /// No chunk is ever empty, so `pending.isEmpty` means nothing waits.
  @usableFromInline var pending: [[Entry]] = []
  /// The most entries one chunk holds (24 bytes each: a chunk stays below malloc's mmap threshold).
  @inlinable static var chunkCapacity: Int { 4096 }
  /// True while a drainer or an idle-path caller holds the turn.
  @usableFromInline var turnHeld = false

  @usableFromInline init() {}

  /// Whether anyone holds the turn (for tests and diagnostics).
  var isTurnHeld: Bool { turnHeld }
  /// How many entries wait (for tests and diagnostics).
  var pendingCount: Int { pending.reduce(0) { $0 + $1.count } }

  @usableFromInline
  enum EnqueueAction: Equatable {
    /// The queue was idle: the caller must start a drainer, which now owns the turn.
    case startDrainer
    /// Someone holds the turn and will reach the entry in order.
    case none
  }

  /// Appends `entry` behind everything enqueued before it.
  @inlinable
  mutating func enqueue(_ entry: Entry) -> EnqueueAction {
    if let last = pending.indices.last, pending[last].count < Self.chunkCapacity {
      pending[last].append(entry)
    } else {
      pending.append([entry])
    }
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

  @usableFromInline
  enum NextAction: Equatable {
    /// Run these entries in order; the drainer keeps the turn.
    case run
    /// Nothing is left: the drainer gave up the turn and must exit.
    case stop
  }

  /// Called by the drainer (which holds the turn) for its next batch.
  ///
  /// The whole backlog moves to the drainer in O(1). The drainer passes in its spent batch, whose
  /// (small) outer array is reused.
  @inlinable
  mutating func nextBatch(into batch: inout [[Entry]]) -> NextAction {
    precondition(turnHeld, "SerialDrainStateMachine.nextBatch(into:) without holding the turn")
    batch.removeAll(keepingCapacity: true)
    if pending.isEmpty {
      turnHeld = false
      return .stop
    }
    swap(&pending, &batch)
    return .run
  }
}

extension SerialDrainStateMachine: Sendable where Entry: Sendable {}
