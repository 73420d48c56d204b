/// The storage of a queue's ``SerialDrainStateMachine``: the lock, and the typed entry points
/// the queue faces use. The faces perform the returned actions (starting a drainer) because only
/// they know where a drainer runs: anywhere for a FIFO queue, on the adopted actor for an actor
/// queue.
///
/// Generic over the entry type so that each queue stores exactly what it needs: a FIFO entry is
/// one closure (16 bytes), an actor-queue entry a job; both mark places with a payload-free case.
///
/// Work that runs in its own task (`Task(on:)`, `enqueueAndWait`) waits by a numbered place in
/// line. Whoever holds the turn before it hands the turn over directly when done (a FIFO item
/// when it finishes, an actor-queue item when it has started on the actor), so a run of such tasks
/// passes the turn from one to the next with no drainer in between and no object per place.
@usableFromInline
struct SerialDrainStorage<Entry: SerialDrainEntry>: Sendable {
  /// How a caller that runs its own work holds its place.
  ///
  /// One word: an observed item's bookkeeping lives in a box that only observed reservations
  /// allocate, so an unobserved queue pays nothing for observation.
  enum Reservation: Sendable {
    /// The queue was idle: the caller holds the turn already.
    case acquired
    /// The caller waits for this numbered place in line.
    case place(UInt64)
    /// An observer watches the item (only while QueueTesting's harness is installed).
    case observed(ObservedReservation)

    /// The place to wait for, if the caller did not get the turn at once.
    @inline(__always)
    var place: UInt64? {
      switch self {
      case .acquired: nil
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

  /// An observed reservation's place (nil: acquired at once) and item.
  final class ObservedReservation: Sendable {
    let place: UInt64?
    let item: ObservedQueueItem

    init(place: UInt64?, item: ObservedQueueItem) {
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

  /// Reserves a place for work that runs in the caller's (or a new) task: the turn at once if the
  /// queue is idle, a numbered place in line otherwise.
  @inline(__always)
  func reserve(item: ObservedQueueItem?) -> (Reservation, SerialDrainStateMachine<Entry>.EnqueueAction) {
    let (place, action) = machine.withLock { machine -> (UInt64?, SerialDrainStateMachine<Entry>.EnqueueAction) in
      if machine.acquireIfIdle() { return (nil, .none) }
      return machine.reservePlace(marker: .place)
    }
    if let item { return (Self.observed(place, item), action) }
    return (place.map { .place($0) } ?? .acquired, action)
  }

  /// Kept out of line: only observed runs (under QueueTesting's harness) take this path.
  @inline(never)
  private static func observed(_ place: UInt64?, _ item: ObservedQueueItem) -> Reservation {
    .observed(ObservedReservation(place: place, item: item))
  }

  /// Suspends until `reservation` holds the turn. Runs in the caller's isolation: a caller that
  /// holds the turn already, or is given it before it asks, does not hop anywhere.
  ///
  /// Not cancellable on purpose: a cancelled item keeps its place, runs in order and sees
  /// `Task.isCancelled`, so cancelling one item never reorders the others.
  @inline(__always)
  nonisolated(nonsending) func awaitTurn(_ reservation: Reservation) async {
    guard let place = reservation.place else { return }
    if machine.withLock({ $0.claimPlace(place) }) { return }
    await withUnsafeContinuation { (holder: UnsafeContinuation<Void, Never>) in
      if machine.withLock({ $0.parkHolder(of: place, holder) }) { holder.resume() }
    }
  }

  /// Gives back the turn the caller holds by passing it along: to the next place in line, whose
  /// holder is resumed if it waits; true means the caller must start a drainer for the work that
  /// is next.
  @inline(__always)
  func passTurn() -> Bool {
    let next: UnsafeContinuation<Void, Never>?? = machine.withLock { machine in
      switch machine.passTurn(isPlace: { $0.isPlace }) {
      case .idle: return .some(nil)
      case .startDrainer: return nil
      case .grant: return .some(machine.grantNextPlace())
      }
    }
    guard let next else { return true }
    next?.resume()
    return false
  }

  /// Runs every entry in order until none is left, or until it reaches a place: then the rest of
  /// the batch goes back in line, the place's holder takes over the turn and the drain ends. Each
  /// chunk is freed as soon as it has run.
  ///
  /// Only for drainers that need no particular isolation (the FIFO queue's); the actor queue's
  /// drainer must start entries from inside the actor, so it walks the chunks itself.
  func drain(_ run: (Entry) async -> Void) async {
    var batch: [[Entry]] = []
    while nextBatch(into: &batch) {
      for chunk in batch.indices {
        for index in batch[chunk].indices {
          let entry = batch[chunk][index]
          if entry.isPlace {
            handOver(batch, after: index, inChunk: chunk)
            return
          }
          await run(entry)
        }
        batch[chunk] = []
      }
    }
  }

  /// For a drainer that reached the place at `batch[chunk][index]`: the rest of its batch goes
  /// back in line and the place's holder takes over the turn; the drainer must then end.
  @usableFromInline
  func handOver(_ batch: [[Entry]], after index: Int, inChunk chunk: Int) {
    let holder = machine.withLock { machine in
      machine.handBack(batch, after: index, inChunk: chunk)
      return machine.grantNextPlace()
    }
    holder?.resume()
  }

  /// For the drainer: refills `batch` with the next entries (in chunks), or gives up the turn
  /// and returns false when there are none.
  @inlinable
  func nextBatch(into batch: inout [[Entry]]) -> Bool {
    machine.withLock { $0.nextBatch(into: &batch) } == .run
  }
}

/// What a queue stores in line: its own work, or the mark of a place held by work that runs in
/// its own task.
@usableFromInline
protocol SerialDrainEntry: Sendable {
  /// The entry that marks a place in line.
  static var place: Self { get }
  /// Whether the entry marks a place (rather than being the queue's own work).
  var isPlace: Bool { get }
}
