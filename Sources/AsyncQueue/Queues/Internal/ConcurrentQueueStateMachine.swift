/// The pure state machine behind ``ConcurrentQueue``: which items run, which wait, and who starts
/// the next ones.
///
/// Items begin strictly in line order. The front item may begin when the queue's rules allow it:
/// an ordinary item while fewer than `width` items run and no barrier runs, a barrier only when
/// nothing runs (and while it runs nothing else begins). An item counts as running from then on.
///
/// An item is either *work* (a closure a worker task of the queue runs) or a *place* (work that
/// runs in its own task: `enqueueAndWait`, `Task(on:)`).
/// - Work begins when a *running* worker takes it, under the lock, and runs it at once. No work is
///   ever handed to a task that has not started: when work may begin and no worker is free, the
///   machine asks for a new worker (one at a time), and the first worker to come takes it. A
///   worker that finishes an item takes the next work itself, so a busy queue runs at most `width`
///   workers and starts no task per item.
/// - A place is *granted* when it may begin; it begins when its holder's task runs and says so
///   (``began()``). Until then nothing behind it begins, so item n + 1 never begins before item n,
///   whichever tasks the runtime runs first. Places are numbered in line order and granted in that
///   order, so the machine remembers how many were granted and who parked before its grant.
///
/// The machine never runs anything: its methods return what the storage must do outside the lock
/// (start a worker, resume a holder).
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
  /// Items waiting to begin, oldest first, from `head` on.
  private var line: [Item] = []
  private var head = 0
  /// Items begun (or granted) and not finished, barriers included.
  private(set) var running = 0
  /// Whether the item running is a barrier (then `running` is 1).
  private(set) var barrierRunning = false
  /// Whether a granted item has not begun yet: nothing behind it begins until it has.
  private(set) var beginPending = false
  /// Whether a worker was asked for and has not started yet.
  private(set) var workerStarting = false
  private var placesReserved: UInt64 = 0
  /// Places below this number were granted.
  private var placesGranted: UInt64 = 0
  private var parkedHolders = PlaceWaitList<Holder>()

  /// A machine for a queue of `width` (at least 1).
  init(width: Int) {
    precondition(width >= 1, "ConcurrentQueue: the width must be at least 1, not \(width)")
    self.width = width
  }

  /// How many items wait to begin (for tests and diagnostics).
  var waitingCount: Int { line.count - head }

  /// Whether an item of this kind may begin now, ignoring the line.
  private func allowsStart(barrier: Bool) -> Bool {
    !barrierRunning && (barrier ? running == 0 : running < width)
  }

  private mutating func begin(barrier: Bool) {
    running += 1
    barrierRunning = barrier
  }

  // MARK: Enqueueing

  /// Puts `work` in line behind everything enqueued before it; what may begin now (a worker to
  /// start, which takes the work, or later work, when it runs: see ``workerStarted()``).
  mutating func enqueue(_ work: Work, barrier: Bool) -> Starts {
    line.append(Item(entry: .work(work), isBarrier: barrier))
    var starts = Starts()
    admit(into: &starts, worker: false)
    return starts
  }

  /// How work that runs in its own task holds its place.
  enum Reservation: Equatable {
    /// It was granted at once: it must call ``began()`` as it begins (unless it began as it
    /// reserved) and ``finish(barrier:byWorker:)`` when done.
    case started
    /// It waits for this numbered place (see ``claim(_:)`` and ``park(_:_:)``); once granted, it
    /// must call ``began()`` as it begins.
    case place(UInt64)
  }

  /// Reserves a place for work that runs in its own task. `beginsNow`: the calling task runs the
  /// work itself if it is granted at once (a caller that waits for it), rather than a task that
  /// runs later (`Task(on:)`).
  mutating func reserve(barrier: Bool, beginsNow: Bool) -> Reservation {
    if head == line.count && !beginPending && allowsStart(barrier: barrier) {
      begin(barrier: barrier)
      beginPending = !beginsNow
      return .started
    }
    let place = placesReserved
    placesReserved += 1
    line.append(Item(entry: .place, isBarrier: barrier))
    return .place(place)
  }

  /// Whether `place` was granted.
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

  // MARK: Beginning and finishing

  /// What the storage does when an item began or finished, or a worker started.
  struct Starts {
    /// The work the calling worker runs next, and whether it is a barrier.
    var next: (work: Work, isBarrier: Bool)?
    /// What else to start: a new worker, or the holder of the place just granted (at most one:
    /// nothing behind a granted place begins until it has, and one worker is asked for at a
    /// time).
    var other: Start?
  }

  /// Something to start outside the lock.
  enum Start {
    /// Start a new worker task.
    case worker
    /// Resume the holder of a granted place.
    case holder(Holder)
  }

  /// The granted item that had not begun has begun: what may begin now.
  mutating func began() -> Starts {
    precondition(beginPending, "ConcurrentQueue: an item began that was not waiting to")
    beginPending = false
    var starts = Starts()
    admit(into: &starts, worker: false)
    return starts
  }

  /// A worker the machine asked for has started: the work it runs first (nil: none, it ends), and
  /// what else may begin.
  mutating func workerStarted() -> Starts {
    precondition(workerStarting, "ConcurrentQueue: a worker started that was not asked for")
    workerStarting = false
    var starts = Starts()
    admit(into: &starts, worker: true)
    return starts
  }

  /// An item that began finished (a barrier, if `barrier`); what may begin now. `byWorker`: the
  /// caller is a worker, which takes the next work itself.
  mutating func finish(barrier: Bool, byWorker: Bool) -> Starts {
    precondition(running > 0 && barrierRunning == barrier, "ConcurrentQueue: an item finished that did not run")
    running -= 1
    barrierRunning = false
    var starts = Starts()
    admit(into: &starts, worker: byWorker)
    return starts
  }

  /// Lets items at the front of the line begin while the rules allow: the calling worker (if
  /// `worker`) takes the first work; a place is granted, and stops the loop until its holder has
  /// begun; work no worker takes asks for a worker (unless one is starting) and waits for it.
  private mutating func admit(into starts: inout Starts, worker: Bool) {
    while !beginPending, head < line.count, allowsStart(barrier: line[head].isBarrier) {
      let item = line[head]
      switch item.entry {
      case .work(let work):
        guard worker && starts.next == nil else {
          if !workerStarting {
            workerStarting = true
            starts.other = .worker
          }
          compactLine()
          return
        }
        starts.next = (work, item.isBarrier)
      case .place:
        placesGranted += 1
        if let holder = parkedHolders.grantNext() { starts.other = .holder(holder) }
        beginPending = true
      }
      head += 1
      begin(barrier: item.isBarrier)
    }
    compactLine()
  }

  /// Drops the begun front of the line once it is at least half of it, so that taking an item
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
extension ConcurrentQueueStateMachine.Start: Sendable where Holder: Sendable {}
