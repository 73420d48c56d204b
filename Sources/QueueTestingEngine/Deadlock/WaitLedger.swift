import AsyncQueue

/// What a controlled run knows about waits: every queue item's life and every named wait.
///
/// A pure value: the run loop feeds it the observer's events under its lock, and asks it, when
/// nothing can run, who waits on whom.
struct WaitLedger {
  struct ItemRecord: Equatable {
    let item: QueueItem
    let enqueuer: Int
    let waiting: Bool
    var runner: Int?
    var finished = false
  }

  private(set) var items: [ItemRecord] = []
  private var queueNumbers: [ObjectIdentifier: Int] = [:]
  private var queueNames: [String] = []
  private var itemCounts: [Int] = []
  /// Named waits in progress, by task.
  private(set) var namedWaits: [Int: String] = [:]

  /// Records an enqueue; returns the index that identifies the item in later calls.
  mutating func enqueue(on queue: QueueDescription, by task: Int, waiting: Bool, barrier: Bool = false)
    -> (Int, QueueItem)
  {
    let kind = QueueItem.QueueKind(rawValue: queue.kind.rawValue) ?? .fifo
    let number: Int
    if let known = queueNumbers[queue.id] {
      number = known
    } else {
      number = queueNames.count + 1
      queueNumbers[queue.id] = number
      queueNames.append(queue.name ?? "\(kind.rawValue)\(number)")
      itemCounts.append(0)
    }
    itemCounts[number - 1] += 1
    let item = QueueItem(
      queue: number, queueName: queueNames[number - 1], kind: kind, number: itemCounts[number - 1],
      width: queue.width, isBarrier: barrier)
    items.append(ItemRecord(item: item, enqueuer: task, waiting: waiting))
    return (items.count - 1, item)
  }

  mutating func start(_ index: Int, in task: Int) -> QueueItem? {
    guard items.indices.contains(index) else { return nil }
    items[index].runner = task
    return items[index].item
  }

  mutating func finish(_ index: Int) -> QueueItem? {
    guard items.indices.contains(index) else { return nil }
    items[index].finished = true
    return items[index].item
  }

  mutating func beginWait(_ label: String, task: Int) {
    namedWaits[task] = label
  }

  mutating func endWait(task: Int) {
    namedWaits[task] = nil
  }

  /// The item an unstarted item waits behind: for a FIFO queue the earliest unfinished item
  /// before it; for an actor or a concurrent queue the earliest item before it that has not
  /// started.
  private func itemInFront(of record: ItemRecord) -> ItemRecord? {
    let waitsForStart = record.item.kind == .actor || record.item.kind == .main || record.item.kind == .concurrent
    return items.first { other in
      other.item.queue == record.item.queue && other.item.number < record.item.number
        && (waitsForStart ? other.runner == nil : !other.finished)
    }
  }

  /// Follows the items in front until one that runs: the task holding up `record`.
  private func holder(of record: ItemRecord) -> (front: ItemRecord?, task: Int?) {
    guard let front = itemInFront(of: record) else { return (nil, nil) }
    var current = front
    var seen = 0
    while current.runner == nil, let next = itemInFront(of: current), seen < items.count {
      current = next
      seen += 1
    }
    return (front, current.runner)
  }

  /// The blocked tasks, the first wait-for cycle among them, the items that never started, and
  /// the completion-queue items that started and whose finish callback was never called.
  func analyze(
    label: (Int) -> String
  ) -> (blocked: [DeadlockReport.BlockedTask], cycle: [Int], never: [QueueItem], awaitingFinish: [QueueItem]) {
    var blocked: [DeadlockReport.BlockedTask] = []
    var edges: [Int: Int] = [:]
    let waitingOnItems = items.filter { $0.waiting && $0.runner == nil && !$0.finished }
    var tasks = Set(waitingOnItems.map(\.enqueuer)).union(namedWaits.keys)
    tasks.remove(0)
    for task in tasks.sorted() {
      let running = items.filter { $0.runner == task && !$0.finished }.map(\.item)
      if let record = waitingOnItems.last(where: { $0.enqueuer == task }) {
        let (front, heldBy) = holder(of: record)
        if let front, front.item.kind == .completion, front.runner != nil {
          // The item in front started and only its finish callback can end its turn: no task
          // holds it, so there is no wait-for edge.
          blocked.append(
            .init(
              task: task, label: label(task), waitsOn: .finishCall(item: record.item, behind: front.item),
              running: running))
          continue
        }
        if let heldBy { edges[task] = heldBy }
        blocked.append(
          .init(
            task: task, label: label(task),
            waitsOn: .queueTurn(item: record.item, behind: front?.item, heldBy: heldBy), running: running))
      } else if let name = namedWaits[task] {
        blocked.append(.init(task: task, label: label(task), waitsOn: .named(name), running: running))
      }
    }
    let never = items.filter { $0.runner == nil && !$0.finished }.map(\.item)
    let awaitingFinish = items.filter { $0.item.kind == .completion && $0.runner != nil && !$0.finished && !$0.waiting }
      .map(\.item)
    return (blocked, Self.firstCycle(in: edges), never, awaitingFinish)
  }

  /// The cycle reached from the lowest-numbered task that is on one, rotated to start there.
  static func firstCycle(in edges: [Int: Int]) -> [Int] {
    for start in edges.keys.sorted() {
      var path: [Int] = []
      var current = start
      while let next = edges[current], !path.contains(current) {
        path.append(current)
        current = next
      }
      if let loopStart = path.firstIndex(of: current) {
        let loop = Array(path[loopStart...])
        let lowest = loop.firstIndex(of: loop.min()!)!
        return Array(loop[lowest...] + loop[..<lowest])
      }
    }
    return []
  }
}
