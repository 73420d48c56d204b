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
  /// Entries of `pending[0]` before this index were taken one at a time by
  /// ``passTurn(isPlace:)`` and are no longer in line (0 whenever a drainer takes a batch).
  /// Always less than `pending[0].count`.
  @usableFromInline var head = 0
  /// Places in line of work that runs in its own task: numbered in line order, so the n-th
  /// marker taken out of line is place n. No object per place: the machine keeps the one granted
  /// place and the holders that wait.
  @usableFromInline var placesReserved: UInt64 = 0
  @usableFromInline var placesTaken: UInt64 = 0
  /// The place given the turn before its holder came to claim it.
  @usableFromInline var grantedPlace: UInt64?
  /// Holders that came before their turn, by distance from place `placesTaken`.
  @usableFromInline var parkedHolders = PlaceWaitList<UnsafeContinuation<Void, Never>>()
  /// The most entries one chunk holds. An entry is at most 24 bytes, so a full chunk stays below
  /// 64 KiB: glibc's `free` of a chunk that large consolidates every small freed block first,
  /// which a queue that frees one chunk per batch would pay again and again.
  @inlinable static var chunkCapacity: Int { 2048 }
  /// True while a drainer or an idle-path caller holds the turn.
  @usableFromInline var turnHeld = false
  /// An emptied small chunk kept for the next chunk ``enqueue(_:)`` starts. Tasks that wait by
  /// places and are served as fast as they are created keep the line between empty and one
  /// entry: without it, each such task would allocate a chunk and free it.
  @usableFromInline var spareChunk: [Entry] = []
  /// The largest chunk kept as ``spareChunk``: an idle queue holds at most this many entries'
  /// worth of memory.
  @inlinable static var spareChunkCapacity: Int { 16 }

  @usableFromInline init() {}

  /// Whether anyone holds the turn (for tests and diagnostics).
  var isTurnHeld: Bool { turnHeld }
  /// How many entries wait (for tests and diagnostics).
  var pendingCount: Int { pending.reduce(0) { $0 + $1.count } - head }

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
      var chunk: [Entry] = []
      swap(&chunk, &spareChunk)
      chunk.append(entry)
      pending.append(chunk)
    }
    if turnHeld { return .none }
    turnHeld = true
    return .startDrainer
  }

  /// Takes the turn if nobody holds it and nothing waits; the caller then runs its work inline
  /// and must call ``passTurn(isPlace:)`` when done.
  mutating func acquireIfIdle() -> Bool {
    guard !turnHeld, pending.isEmpty else { return false }
    turnHeld = true
    return true
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
    if head > 0 {
      pending[0].removeFirst(head)
      head = 0
    }
    swap(&pending, &batch)
    return .run
  }

  // MARK: Passing the turn along

  @usableFromInline
  enum PassAction {
    /// Nothing waits: the queue is idle again.
    case idle
    /// The next entry in line is a place, now taken out of line: its holder holds the turn.
    case grant(Entry)
    /// The next entry is work for a drainer: start one, which inherits the turn.
    case startDrainer
  }

  /// Called by whoever holds the turn (a place's holder or an idle-path caller) when it is done
  /// with it: hands the turn straight to the next place in line, so a chain of tasks that each run
  /// their own work passes the turn from one to the next with no drainer in between.
  /// `isPlace` tells the places (whose holders take the turn themselves) from work for a drainer.
  mutating func passTurn(isPlace: (Entry) -> Bool) -> PassAction {
    precondition(turnHeld, "SerialDrainStateMachine.passTurn() without holding the turn")
    guard !pending.isEmpty else {
      turnHeld = false
      return .idle
    }
    let next = pending[0][head]
    guard isPlace(next) else { return .startDrainer }
    head += 1
    if head == pending[0].count { retireFrontChunk() }
    return .grant(next)
  }

  /// Takes the spent front chunk out of line, keeping it as ``spareChunk`` if it is small and
  /// there is none.
  private mutating func retireFrontChunk() {
    head = 0
    var emptied: [Entry] = []
    swap(&emptied, &pending[0])
    // Not `removeFirst()`: this code is generic over the queue's actor type, so it runs
    // unspecialized, and there `removeFirst()` allocates once per call.
    if pending.count == 1 {
      pending.removeAll(keepingCapacity: true)
    } else {
      pending.remove(at: 0)
    }
    guard emptied.capacity <= Self.spareChunkCapacity && spareChunk.capacity == 0 else { return }
    emptied.removeAll(keepingCapacity: true)
    spareChunk = emptied
  }

  /// Puts `marker` in line for work that runs in its own task; returns its place number.
  mutating func reservePlace(marker: Entry) -> (place: UInt64, action: EnqueueAction) {
    let place = placesReserved
    placesReserved += 1
    return (place, enqueue(marker))
  }

  /// Called by the holder of `place`: takes the turn if it was given already.
  mutating func claimPlace(_ place: UInt64) -> Bool {
    guard grantedPlace == place else { return false }
    grantedPlace = nil
    return true
  }

  /// Parks the holder of `place` until its turn; true means the turn came meanwhile and the
  /// holder must be resumed at once (it holds the turn).
  mutating func parkHolder(of place: UInt64, _ holder: UnsafeContinuation<Void, Never>) -> Bool {
    if claimPlace(place) { return true }
    // A place below `placesTaken` was granted already: its holder either was resumed or finds
    // the grant in `claimPlace`, so it never parks.
    precondition(place >= placesTaken, "SerialDrainStateMachine: place \(place) parked after its grant")
    parkedHolders.park(holder, distance: Int(place - placesTaken))
    return false
  }

  /// Gives the turn to the place whose marker was just taken out of line: returns its holder to
  /// resume if it waits; otherwise the holder takes the turn when it comes.
  mutating func grantNextPlace() -> UnsafeContinuation<Void, Never>? {
    let place = placesTaken
    placesTaken += 1
    if let holder = parkedHolders.grantNext() { return holder }
    precondition(grantedPlace == nil, "SerialDrainStateMachine: two places hold the turn")
    grantedPlace = place
    return nil
  }

  /// Called by a drainer that reached a place at `batch[chunk][index]`: the entries after it go
  /// back to the front of the line, ahead of everything enqueued since the batch was taken, and
  /// the place's holder takes over the turn (the drainer then ends).
  mutating func handBack(_ batch: [[Entry]], after index: Int, inChunk chunk: Int) {
    precondition(turnHeld && head == 0, "SerialDrainStateMachine.handBack without a drainer's turn")
    var front: [[Entry]] = []
    if index + 1 < batch[chunk].count { front.append(Array(batch[chunk][(index + 1)...])) }
    front.append(contentsOf: batch[(chunk + 1)...])
    guard !front.isEmpty else { return }
    front.append(contentsOf: pending)
    pending = front
  }
}

extension SerialDrainStateMachine: Sendable where Entry: Sendable {}
