/// The pure state machine behind ``ConcurrentQueue``: which items run, which wait, and who starts
/// the next ones.
///
/// Items start strictly in line order: the front item is *admitted* as soon as the queue's rules
/// allow it, and nothing behind it is admitted before it has *begun*. An ordinary item may be
/// admitted while fewer than `width` items run and no barrier runs; a barrier only when nothing
/// runs, and while it runs nothing else is. An admitted item counts as running. It begins when
/// its task runs it: at once for the worker that took it or a caller that waits for it, later for
/// a new worker or the holder of a place; until then the next item waits (``began()``), so item
/// n + 1 never begins before item n, whichever tasks the runtime runs first.
///
/// An item is either *work* (a closure a worker task of the queue runs) or a *place* (work that
/// runs in its own task, `enqueueAndWait` or `Task(on:)`). Places are numbered in line order and
/// granted in that order, so the machine remembers how many were granted and who parked before
/// its grant, never a set of places.
///
/// The machine never runs anything: its methods return what the storage must do outside the lock
/// (start a worker, resume a holder). A worker that finishes an item takes the next work item
/// itself, so a busy queue runs at most `width` worker tasks and starts no task per item.
struct ConcurrentQueueStateMachine<Work, Holder> {
  /// One item in line.
  struct Item {
    var entry: Entry
    var isBarrier: Bool
  }

  /// What an item is.
  enum Entry {
    /// A closure for a worker to run.
    case work(Work)
    /// The place of work that runs in its own task.
    case place
  }

  /// How many items may run at once.
  let width: Int
  /// Items waiting to start, oldest first, from `head` on.
  private var line: [Item] = []
  private var head = 0
  /// Items started and not finished, barriers included.
  private(set) var running = 0
  /// Whether the item running is a barrier (then `running` is 1).
  private(set) var barrierRunning = false
  /// Whether an admitted item has not begun yet: no other item is admitted until it has.
  private(set) var beginPending = false
  private var placesReserved: UInt64 = 0
  /// Places below this number were granted the right to start.
  private var placesGranted: UInt64 = 0
  private var parkedHolders = PlaceWaitList<Holder>()

  /// A machine for a queue of `width` (at least 1).
  init(width: Int) {
    precondition(width >= 1, "ConcurrentQueue: the width must be at least 1, not \(width)")
    self.width = width
  }

  /// How many items wait to start (for tests and diagnostics).
  var waitingCount: Int { line.count - head }

  /// Whether an item of this kind may start now, ignoring the line.
  private func allowsStart(barrier: Bool) -> Bool {
    !barrierRunning && (barrier ? running == 0 : running < width)
  }

  /// Whether a newly enqueued item may start at once: nothing waits ahead of it, and every item
  /// admitted before it has begun.
  private func startsAtOnce(barrier: Bool) -> Bool {
    head == line.count && !beginPending && allowsStart(barrier: barrier)
  }

  private mutating func begin(barrier: Bool) {
    running += 1
    barrierRunning = barrier
  }

  private mutating func append(_ item: Item) {
    line.append(item)
  }

  // MARK: Enqueueing

  /// What the storage does after an enqueue of work.
  enum EnqueueAction {
    /// Start a worker with this work: it was admitted at once, and the worker must call
    /// ``began()`` before it runs it.
    case startWorker(Work)
    /// The work waits in line; a finishing item starts it.
    case none
  }

  /// Puts `work` in line behind everything enqueued before it.
  mutating func enqueue(_ work: Work, barrier: Bool) -> EnqueueAction {
    if startsAtOnce(barrier: barrier) {
      begin(barrier: barrier)
      beginPending = true
      return .startWorker(work)
    }
    append(Item(entry: .work(work), isBarrier: barrier))
    return .none
  }

  /// How work that runs in its own task holds its place.
  enum Reservation: Equatable {
    /// It was admitted at once: it must call ``began()`` as it begins (unless it began as it
    /// reserved) and ``finish(barrier:byWorker:)`` when done.
    case started
    /// It waits for this numbered place (see ``claim(_:)`` and ``park(_:_:)``); once granted, it
    /// must call ``began()`` as it begins.
    case place(UInt64)
  }

  /// Reserves a place for work that runs in its own task. `beginsNow`: the calling task runs the
  /// work itself if it is admitted at once (a caller that waits for it), rather than a task that
  /// runs later (`Task(on:)`).
  mutating func reserve(barrier: Bool, beginsNow: Bool) -> Reservation {
    if startsAtOnce(barrier: barrier) {
      begin(barrier: barrier)
      beginPending = !beginsNow
      return .started
    }
    let place = placesReserved
    placesReserved += 1
    append(Item(entry: .place, isBarrier: barrier))
    return .place(place)
  }

  /// Whether `place` was granted: its holder has started and runs.
  func claim(_ place: UInt64) -> Bool {
    place < placesGranted
  }

  /// Parks the holder of `place` until its grant; true means the grant came meanwhile and the
  /// holder must be resumed at once.
  mutating func park(_ place: UInt64, _ holder: Holder) -> Bool {
    if claim(place) { return true }
    parkedHolders.park(holder, distance: Int(place - placesGranted))
    return false
  }

  // MARK: Finishing

  /// The admitted item that had not begun has begun: admits what may start now.
  mutating func began() -> Starts {
    precondition(beginPending, "ConcurrentQueue: an item began that was not waiting to")
    beginPending = false
    var starts = Starts()
    admit(into: &starts, byWorker: false)
    return starts
  }

  /// What the storage does after an item finished or began: the items admitted now, in line
  /// order.
  struct Starts {
    /// The work the finishing worker runs next (only for a worker), and whether it is a barrier.
    var next: (work: Work, isBarrier: Bool)?
    /// The item admitted to begin in another task, after `next` in line (at most one: the items
    /// behind it wait until it has begun).
    var other: Start?
  }

  /// One item that starts.
  enum Start {
    /// Start a new worker with this work (a barrier, if the flag says so).
    case worker(Work, isBarrier: Bool)
    /// Resume the holder of a granted place.
    case holder(Holder)
  }

  /// An item that started finished (a barrier, if `barrier`); admits what may start now, in line
  /// order. `byWorker`: the caller is a worker, which takes the first work item itself and begins
  /// it at once.
  mutating func finish(barrier: Bool, byWorker: Bool) -> Starts {
    precondition(running > 0 && barrierRunning == barrier, "ConcurrentQueue: an item finished that did not run")
    running -= 1
    barrierRunning = false
    var starts = Starts()
    admit(into: &starts, byWorker: byWorker)
    return starts
  }

  /// Admits items from the front of the line while the rules allow, up to the first one that
  /// begins later (in a task that runs later): the items behind it wait until it has begun.
  private mutating func admit(into starts: inout Starts, byWorker: Bool) {
    while !beginPending, head < line.count, allowsStart(barrier: line[head].isBarrier) {
      let item = line[head]
      head += 1
      begin(barrier: item.isBarrier)
      switch item.entry {
      case .work(let work):
        if byWorker && starts.next == nil {
          starts.next = (work, item.isBarrier)
        } else {
          starts.other = .worker(work, isBarrier: item.isBarrier)
          beginPending = true
        }
      case .place:
        placesGranted += 1
        if let holder = parkedHolders.grantNext() { starts.other = .holder(holder) }
        beginPending = true
      }
    }
    compactLine()
  }

  /// Drops the started front of the line once it is at least half of it, so that taking an item
  /// stays amortized O(1) and memory follows the backlog.
  private mutating func compactLine() {
    if head == line.count {
      line.removeAll(keepingCapacity: line.capacity <= 64)
      head = 0
    } else if head >= 64 && head * 2 >= line.count {
      line.removeSubrange(0..<head)
      head = 0
    }
  }
}

extension ConcurrentQueueStateMachine: Sendable where Work: Sendable, Holder: Sendable {}
extension ConcurrentQueueStateMachine.Item: Sendable where Work: Sendable {}
extension ConcurrentQueueStateMachine.Entry: Sendable where Work: Sendable {}
extension ConcurrentQueueStateMachine.Starts: Sendable where Work: Sendable, Holder: Sendable {}
extension ConcurrentQueueStateMachine.Start: Sendable where Work: Sendable, Holder: Sendable {}
