/// The state of a ``CompletionQueue``: the line of entries, the item that holds the turn, and
/// whether the queue is paused.
///
/// A pure value: each method returns what its caller must do (start an item, resume waiters,
/// report a second finish) and does none of it. Generic over the item and the waiter's
/// continuation so tests can drive it with plain values.
struct CompletionQueueStateMachine<Item, Waiter> {
  enum Entry {
    /// Work that holds the turn from its start until its finish callback is called.
    case item(Item)
    /// Someone waiting until every entry before it has finished; takes no turn.
    case waiter(Waiter)
  }

  /// What the caller does after a change.
  struct Actions {
    /// The item to start now with its id (at most one: the queue runs one item at a time).
    var start: (id: UInt64, item: Item)?
    /// Waiters whose turn came: resume them.
    var resume: [Waiter] = []
  }

  /// What ``finish(_:)`` found.
  enum FinishOutcome {
    /// The running item finished; carry out the actions.
    case finished(Actions)
    /// The id had finished already (or never ran): a second call, which changes nothing.
    case alreadyFinished
  }

  private var line: [Entry] = []
  private var head = 0
  /// The item holding the turn.
  private(set) var running: UInt64?
  private var lastID: UInt64 = 0
  private(set) var isPaused = false

  /// How many items wait for their turn (waiters not counted).
  var pendingItemCount: Int {
    line[head...].reduce(0) { count, entry in
      if case .item = entry { count + 1 } else { count }
    }
  }

  /// Adds an item at the end of the line.
  mutating func enqueue(_ item: Item) -> Actions {
    line.append(.item(item))
    return advance()
  }

  /// Adds a waiter at the end of the line: it is resumed once everything before it finished.
  mutating func enqueueWaiter(_ waiter: Waiter) -> Actions {
    line.append(.waiter(waiter))
    return advance()
  }

  /// The finish callback of item `id` was called.
  mutating func finish(_ id: UInt64) -> FinishOutcome {
    guard running == id else { return .alreadyFinished }
    running = nil
    return .finished(advance())
  }

  /// Holds back items that have not started; the running one goes on.
  mutating func pause() {
    isPaused = true
  }

  /// Lets items start again.
  mutating func resume() -> Actions {
    isPaused = false
    return advance()
  }

  /// Moves the line forward while nothing runs: waiters at the front are released, and the next
  /// item starts unless the queue is paused.
  private mutating func advance() -> Actions {
    var actions = Actions()
    while running == nil, head < line.count {
      switch line[head] {
      case .waiter(let waiter):
        actions.resume.append(waiter)
      case .item(let item):
        if isPaused { return compacted(actions) }
        lastID += 1
        running = lastID
        actions.start = (lastID, item)
      }
      head += 1
    }
    return compacted(actions)
  }

  /// Drops the consumed front of the line once it is at least half of it, so the storage stays
  /// proportional to what waits.
  private mutating func compacted(_ actions: Actions) -> Actions {
    if head > 32 && head * 2 >= line.count {
      line.removeFirst(head)
      head = 0
    }
    return actions
  }
}

extension CompletionQueueStateMachine: Sendable where Item: Sendable, Waiter: Sendable {}
extension CompletionQueueStateMachine.Entry: Sendable where Item: Sendable, Waiter: Sendable {}
extension CompletionQueueStateMachine.Actions: Sendable where Item: Sendable, Waiter: Sendable {}
