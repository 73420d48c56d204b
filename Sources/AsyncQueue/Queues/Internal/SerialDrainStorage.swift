/// The storage of a queue's ``SerialDrainStateMachine``: the lock, and the typed entry points
/// the queue faces use. The faces perform the returned actions (starting a drainer) because only
/// they know where a drainer runs: anywhere for a FIFO queue, on the adopted actor for an actor
/// queue.
///
/// Generic over the entry type so that each queue stores exactly what it needs: a FIFO entry is
/// one closure (16 bytes), an actor-queue entry also tells tickets from jobs.
@usableFromInline
struct SerialDrainStorage<Entry: SerialDrainEntry>: Sendable {
  /// How a caller that runs its own work holds its place.
  ///
  /// One word, as before queues could be observed: an observed item's bookkeeping lives in a
  /// box that only observed reservations allocate, so the unobserved path copies and releases
  /// nothing more than a ticket reference.
  enum Reservation: Sendable {
    /// The queue was idle: the caller holds the turn already.
    case acquired
    /// The caller waits in line with this ticket.
    case ticket(TurnTicket)
    /// The caller waits for this numbered place in line (FIFO: no ticket object per item).
    case place(UInt64)
    /// An observer watches the item (only while QueueTesting's harness is installed).
    case observed(ObservedReservation)

    /// The ticket to wait with, if the caller did not get the turn at once.
    @inline(__always)
    var ticket: TurnTicket? {
      switch self {
      case .acquired, .place: nil
      case .ticket(let ticket): ticket
      case .observed(let observed): observed.ticket
      }
    }

    /// The place to wait for, for a caller in a FIFO line.
    @inline(__always)
    var place: UInt64? {
      switch self {
      case .acquired, .ticket: nil
      case .place(let place): place
      case .observed(let observed): observed.place
      }
    }

    /// The item as a QueueTesting observer sees it, when one watches.
    var item: ObservedQueueItem? {
      if case .observed(let observed) = self { return observed.item }
      return nil
    }
  }

  /// An observed reservation's ticket or place (both nil: acquired at once) and item.
  final class ObservedReservation: Sendable {
    let ticket: TurnTicket?
    let place: UInt64?
    let item: ObservedQueueItem

    init(ticket: TurnTicket?, place: UInt64?, item: ObservedQueueItem) {
      self.ticket = ticket
      self.place = place
      self.item = item
    }
  }

  @usableFromInline let machine = LockedState<SerialDrainStateMachine<Entry>>.make(.init())

  @usableFromInline init() {}

  /// Whether anyone holds the turn: false means no drainer exists and no caller runs inline.
  var isBusy: Bool { machine.withLock { $0.isTurnHeld } }

  /// Appends an entry; `.startDrainer` means the caller must start one.
  @inlinable
  func enqueue(_ entry: Entry) -> SerialDrainStateMachine<Entry>.EnqueueAction {
    machine.withLock { $0.enqueue(entry) }
  }

  /// Reserves a place for work that runs in the caller's (or a new) task.
  @inline(__always)
  func reserve(item: ObservedQueueItem?) -> (Reservation, SerialDrainStateMachine<Entry>.EnqueueAction) {
    if let marker = Entry.placeMarker { return reservePlace(marker: marker, item: item) }
    let (ticket, action) = machine.withLock { machine -> (TurnTicket?, SerialDrainStateMachine<Entry>.EnqueueAction) in
      if machine.acquireIfIdle() { return (nil, .none) }
      let ticket = TurnTicket()
      return (ticket, machine.enqueue(Entry(ticket: ticket)))
    }
    if let item { return (Self.observed(ticket, nil, item), action) }
    return (ticket.map { .ticket($0) } ?? .acquired, action)
  }

  /// ``reserve(item:)`` for a line of numbered places (FIFO).
  @inline(__always)
  private func reservePlace(
    marker: Entry, item: ObservedQueueItem?
  ) -> (Reservation, SerialDrainStateMachine<Entry>.EnqueueAction) {
    let (place, action) = machine.withLock { machine -> (UInt64?, SerialDrainStateMachine<Entry>.EnqueueAction) in
      if machine.acquireIfIdle() { return (nil, .none) }
      return machine.reservePlace(marker: marker)
    }
    if let item { return (Self.observed(nil, place, item), action) }
    return (place.map { .place($0) } ?? .acquired, action)
  }

  /// Kept out of line: only observed runs (under QueueTesting's harness) take this path.
  @inline(never)
  private static func observed(_ ticket: TurnTicket?, _ place: UInt64?, _ item: ObservedQueueItem) -> Reservation {
    .observed(ObservedReservation(ticket: ticket, place: place, item: item))
  }

  /// Suspends until `reservation` holds the turn. Runs in the caller's isolation: a caller that
  /// holds the turn already (`.acquired`) does not hop to the global executor and back, which
  /// cost a task switch per `enqueueAndWait` on an idle queue.
  @inline(__always)
  nonisolated(nonsending) func awaitTurn(_ reservation: Reservation) async {
    if let ticket = reservation.ticket {
      await ticket.awaitTurn()
    } else if let place = reservation.place {
      await awaitPlace(place)
    }
  }

  /// Suspends until `place` is given the turn; not cancellable, like a ticket.
  @inline(__always)
  nonisolated(nonsending) private func awaitPlace(_ place: UInt64) async {
    if machine.withLock({ $0.claimPlace(place) }) { return }
    await withUnsafeContinuation { (holder: UnsafeContinuation<Void, Never>) in
      if machine.withLock({ $0.parkHolder(of: place, holder) }) { holder.resume() }
    }
  }

  /// Gives back the turn held through `reservation`; `.startDrainer` means the caller must start
  /// one for the entries that arrived meanwhile.
  @inline(__always)
  func endTurn(_ reservation: Reservation) -> SerialDrainStateMachine<Entry>.ReleaseAction {
    guard let ticket = reservation.ticket else { return machine.withLock { $0.release() } }
    ticket.release()
    return .none
  }

  /// Gives back the turn held through `reservation` by passing it along (FIFO): to the next
  /// ticket in line, whose holder is resumed; true means the caller must start a drainer for the
  /// work that is next.
  @inline(__always)
  func passTurn() -> Bool {
    let next: UnsafeContinuation<Void, Never>?? = machine.withLock { machine in
      switch machine.passTurn(isTicket: { $0.isTicket }) {
      case .idle: return .some(nil)
      case .startDrainer: return nil
      case .grant: return .some(machine.grantNextPlace())
      }
    }
    guard let next else { return true }
    next?.resume()
    return false
  }

  /// Runs every entry in order, like ``drain(_:)``, except that a ticket ends the drain: the
  /// rest of the batch goes back in line and the ticket's holder takes over the turn (FIFO).
  func drainPassingTickets(_ run: (Entry) async -> Void) async {
    var batch: [[Entry]] = []
    while nextBatch(into: &batch) {
      for chunk in batch.indices {
        for index in batch[chunk].indices {
          let entry = batch[chunk][index]
          if entry.isTicket {
            let holder = machine.withLock { machine in
              machine.handBack(batch, after: index, inChunk: chunk)
              return machine.grantNextPlace()
            }
            holder?.resume()
            return
          }
          await run(entry)
        }
        batch[chunk] = []
      }
    }
  }

  /// For the drainer: refills `batch` with the next entries (in chunks), or gives up the turn
  /// and returns false when there are none.
  @inlinable
  func nextBatch(into batch: inout [[Entry]]) -> Bool {
    machine.withLock { $0.nextBatch(into: &batch) } == .run
  }

  /// Runs every entry in order, until none is left; `run` decides how long an entry holds the
  /// turn. Each chunk is freed as soon as it has run.
  ///
  /// Only for drainers that need no particular isolation (the FIFO queue's); the actor queue's
  /// drainer must start entries from inside the actor, so it walks the chunks itself.
  func drain(_ run: (Entry) async -> Void) async {
    var batch: [[Entry]] = []
    while nextBatch(into: &batch) {
      for index in batch.indices {
        for entry in batch[index] { await run(entry) }
        batch[index] = []
      }
    }
  }
}

/// What a queue stores in line: its own work, or a ticket of work that runs in its own task.
@usableFromInline
protocol SerialDrainEntry: Sendable {
  /// The entry that lends the turn to the holder of `ticket` when its turn comes.
  init(ticket: TurnTicket)
  /// Whether the entry holds a place for work that runs in its own task (a ticket or a marker).
  var isTicket: Bool { get }
  /// The entry that marks a numbered place in line, for queues whose callers wait by place
  /// (FIFO: it passes the turn along); nil for queues whose callers wait with a ``TurnTicket``.
  static var placeMarker: Self? { get }
}
