/// The pure state machine behind ``AsyncSemaphore``: its free permits and its waiters, oldest
/// first.
///
/// A permit is either free or held; a signal hands its permit straight to the oldest waiter, so
/// free permits and waiters never coexist and a later `wait` never takes a permit ahead of an
/// earlier one. A cancelled waiter leaves the line without a permit, and a waiter that was handed
/// a permit keeps it even if its task is cancelled afterwards: a permit is never lost and never
/// doubled, whichever of a signal and a cancellation comes first.
///
/// The machine never resumes anything: its methods return the continuation to resume outside the
/// lock. Generic over the waiter so that tests can drive it with plain values.
struct AsyncSemaphoreStateMachine<Waiter> {
  /// Permits no one holds.
  private(set) var freePermits: Int
  /// The waits in progress by id, from the id handed out until the wait ends.
  private var waits: [UInt64: Wait] = [:]
  /// Ids of the waits in line, oldest first, from the moment each is handed its id (its waiter
  /// comes later, in another lock section); may hold ids of waits that left it (cancelled),
  /// which are skipped.
  private var line: [UInt64] = []
  private var head = 0
  private var nextID: UInt64 = 0

  /// Where one wait is.
  enum Wait {
    /// Handed an id; its waiter has not come to the line yet.
    case coming
    /// Handed a permit by a signal before its waiter came.
    case grantedBeforeComing
    /// Its task was cancelled before its waiter came.
    case cancelledBeforeComing
    /// Its waiter waits.
    case waiting(Waiter)
  }

  /// A semaphore with `permits` free permits (at least 0).
  init(permits: Int) {
    precondition(permits >= 0, "AsyncSemaphore: the initial value must be at least 0, not \(permits)")
    freePermits = permits
  }

  /// How many waiters are in line (for tests and diagnostics).
  var waiterCount: Int {
    waits.values.reduce(0) { count, wait in if case .waiting = wait { count + 1 } else { count } }
  }

  /// What a wait does.
  enum WaitAction: Equatable {
    /// A free permit was taken: go on.
    case acquired
    /// No permit is free: wait with this id (see ``enqueue(_:id:)``).
    case wait(id: UInt64)
  }

  /// Takes a free permit, or an id to wait with.
  mutating func wait() -> WaitAction {
    if freePermits > 0 {
      freePermits -= 1
      return .acquired
    }
    nextID += 1
    waits[nextID] = .coming
    line.append(nextID)
    return .wait(id: nextID)
  }

  /// What happens to a waiter that comes to the line.
  enum EnqueueAction: Equatable {
    /// It waits for a signal.
    case waits
    /// A signal handed it a permit before it came: resume it at once; it holds the permit.
    case granted
    /// Its task was cancelled before it came: resume it with a cancellation, at once.
    case cancelled
  }

  /// The waiter of the wait `id` comes: it waits, unless a signal or a cancellation came first.
  mutating func enqueue(_ waiter: Waiter, id: UInt64) -> EnqueueAction {
    switch waits.removeValue(forKey: id) {
    case .coming:
      waits[id] = .waiting(waiter)
      return .waits
    case .grantedBeforeComing:
      return .granted
    case .cancelledBeforeComing, .waiting, nil:
      return .cancelled
    }
  }

  /// What a signal does.
  enum SignalAction {
    /// Resume this waiter: it holds the permit.
    case resume(Waiter)
    /// The permit went to the wait `id`, whose waiter has not come yet: it finds the permit when
    /// it comes.
    case grantedBeforeComing(id: UInt64)
    /// No wait is in line: the permit is free.
    case freed
  }

  /// Gives a permit back: to the oldest wait, or to the free permits.
  mutating func signal() -> SignalAction {
    defer { compactLine() }
    while head < line.count {
      let id = line[head]
      head += 1
      switch waits[id] {
      case .waiting(let waiter):
        waits[id] = nil
        return .resume(waiter)
      case .coming:
        waits[id] = .grantedBeforeComing
        return .grantedBeforeComing(id: id)
      case .cancelledBeforeComing:
        // Its waiter, when it comes, is told of the cancellation.
        continue
      case .grantedBeforeComing, nil:
        // Left the line already (cancelled while waiting).
        continue
      }
    }
    freePermits += 1
    return .freed
  }

  /// The wait with `id` was cancelled: returns its waiter, to be resumed with a cancellation, if
  /// it waits; nil if a signal handed it a permit already (it keeps it) or its waiter has not
  /// come yet (it is told when it comes, by ``enqueue(_:id:)``).
  mutating func cancel(_ id: UInt64) -> Waiter? {
    switch waits[id] {
    case .waiting(let waiter):
      waits[id] = nil
      return waiter
    case .coming:
      waits[id] = .cancelledBeforeComing
      return nil
    case .grantedBeforeComing, .cancelledBeforeComing, nil:
      return nil
    }
  }

  /// Drops the served front of the line once it is at least half of it, so that a signal stays
  /// amortized O(1) and memory follows the waiters.
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

extension AsyncSemaphoreStateMachine: Sendable where Waiter: Sendable {}
extension AsyncSemaphoreStateMachine.Wait: Sendable where Waiter: Sendable {}
