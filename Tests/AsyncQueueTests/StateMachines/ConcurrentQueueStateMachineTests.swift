import QueueWorkloads
import Testing

@testable import AsyncQueue

@Suite("ConcurrentQueueStateMachine", .timeLimit(.minutes(5)), .hangGuard)
struct ConcurrentQueueStateMachineTests {
  /// Work and holders are item numbers, so that the test can tell which item an action starts.
  typealias Machine = ConcurrentQueueStateMachine<Int, Int>

  /// One item as the test sees it.
  struct Item {
    let isBarrier: Bool
    let isPlace: Bool
    /// For a place: its number in the machine.
    var place: UInt64?
    var parked = false
    /// The queue admitted it (for a place: granted it); it counts as running.
    var admitted = false
    /// Its task may begin it: a worker has it, or the holder of its place runs.
    var inItsTask = false
    /// It began: the item after it may be admitted.
    var begun = false
    var finished = false
    /// Runs on a worker of the queue, not in a task of its own.
    var byWorker = false

    /// The item's state as bits, for telling explored states apart.
    var bits: Int {
      [isBarrier, isPlace, parked, admitted, inItsTask, begun, finished, byWorker].enumerated()
        .reduce(0) { $0 | ($1.element ? 1 << $1.offset : 0) }
    }
  }

  /// The queue as the test drives it: the machine and every item so far.
  struct World {
    var machine: Machine
    var items: [Item] = []
    var admissionOrder: [Int] = []
    var beginOrder: [Int] = []
    /// A worker was asked for and has not started.
    var workerRequested = false

    init(width: Int) { machine = Machine(width: width) }

    mutating func admit(_ id: Int, byWorker: Bool, inItsTask: Bool, begun: Bool) {
      #expect(!items[id].admitted, "item \(id) admitted twice")
      items[id].admitted = true
      items[id].byWorker = byWorker
      items[id].inItsTask = inItsTask
      admissionOrder.append(id)
      if begun { begin(id) }
    }

    mutating func begin(_ id: Int) {
      items[id].begun = true
      beginOrder.append(id)
    }

    /// Applies what the machine returned: the calling worker's next work (begun at once), a
    /// worker asked for, a resumed holder, and places granted whose holders have not parked
    /// (they find the grant when they come).
    mutating func apply(_ starts: Machine.Starts) {
      if let next = starts.next {
        #expect(items[next.work].isBarrier == next.isBarrier)
        admit(next.work, byWorker: true, inItsTask: true, begun: true)
      }
      switch starts.other {
      case .worker:
        #expect(!workerRequested, "a second worker was asked for while one was starting")
        workerRequested = true
      case .holder(let id):
        #expect(items[id].parked, "a holder resumed that never parked")
        admit(id, byWorker: false, inItsTask: true, begun: false)
      case nil:
        break
      }
      for id in items.indices where items[id].isPlace && !items[id].admitted {
        if let place = items[id].place, machine.claim(place) {
          #expect(!items[id].parked, "place \(id) was granted, but its parked holder was not resumed")
          admit(id, byWorker: false, inItsTask: false, begun: false)
        }
      }
    }

    /// The moves possible now.
    func moves(maxItems: Int) -> [Move] {
      var moves: [Move] = []
      if items.count < maxItems {
        for barrier in [false, true] {
          moves += [.enqueue(barrier: barrier), .reserve(barrier: barrier), .reserveAndWait(barrier: barrier)]
        }
      }
      if workerRequested { moves.append(.workerStarts) }
      for (id, item) in items.enumerated() {
        if item.begun && !item.finished { moves.append(.finish(id)) }
        if item.admitted && item.inItsTask && !item.begun { moves.append(.begin(id)) }
        if item.isPlace && !item.parked && !item.inItsTask { moves.append(.park(id)) }
      }
      return moves
    }

    mutating func play(_ move: Move) {
      switch move {
      case .enqueue(let barrier):
        items.append(Item(isBarrier: barrier, isPlace: false))
        apply(machine.enqueue(items.count - 1, barrier: barrier))
      case .reserve(let barrier), .reserveAndWait(let barrier):
        let id = items.count
        let beginsNow: Bool
        if case .reserveAndWait = move { beginsNow = true } else { beginsNow = false }
        items.append(Item(isBarrier: barrier, isPlace: true))
        switch machine.reserve(barrier: barrier, beginsNow: beginsNow) {
        case .started: admit(id, byWorker: false, inItsTask: true, begun: beginsNow)
        case .place(let place): items[id].place = place
        }
      case .park(let id):
        // A holder that comes after its grant finds it and goes on; one that comes before parks.
        let granted = items[id].admitted
        let goesOn = machine.park(items[id].place!, id)
        #expect(goesOn == granted, "park of place \(id) answered \(goesOn), granted: \(granted)")
        if goesOn { items[id].inItsTask = true } else { items[id].parked = true }
      case .begin(let id):
        begin(id)
        apply(machine.began())
      case .workerStarts:
        workerRequested = false
        apply(machine.workerStarted())
      case .finish(let id):
        items[id].finished = true
        apply(machine.finish(barrier: items[id].isBarrier, byWorker: items[id].byWorker))
      }
    }

    /// The queue's guarantees, checked after every move.
    func check(width: Int, _ path: [Move]) {
      let running = items.indices.filter { items[$0].admitted && !items[$0].finished }
      #expect(running.count <= width, "more than the width runs after \(path)")
      if running.contains(where: { items[$0].isBarrier }) {
        #expect(running.count == 1, "a barrier runs beside another item after \(path)")
      }
      #expect(admissionOrder == Array(0..<admissionOrder.count), "items admitted out of order after \(path)")
      #expect(beginOrder == Array(0..<beginOrder.count), "items began out of order after \(path)")
      let waitingToBegin = items.filter { $0.admitted && !$0.begun }.count
      #expect(waitingToBegin <= 1, "two admitted items had not begun after \(path)")
      // Nothing waits that could begin: the front item is held back by the rules, by the item
      // before it, which has not begun, or (work) by the worker asked for, which has not started.
      if let front = items.indices.first(where: { !items[$0].admitted }) {
        let runningBarrier = running.contains { items[$0].isBarrier }
        let blocked =
          runningBarrier || running.count == width || (items[front].isBarrier && !running.isEmpty)
          || waitingToBegin == 1 || (!items[front].isPlace && workerRequested)
        #expect(blocked, "item \(front) waits though it may start, after \(path)")
      }
      #expect(machine.running == running.count)
    }

    /// The state, for telling explored states apart.
    var key: [Int] { items.map(\.bits) + [workerRequested ? 1 : 0] }
  }

  enum Move: CustomStringConvertible {
    case enqueue(barrier: Bool)
    /// `Task(on:)`: a task that runs later.
    case reserve(barrier: Bool)
    /// `enqueueAndWait`: the caller runs the item if it is admitted at once.
    case reserveAndWait(barrier: Bool)
    case park(Int)
    case begin(Int)
    case workerStarts
    case finish(Int)

    var description: String {
      switch self {
      case .enqueue(let barrier): barrier ? "enqueueBarrier" : "enqueue"
      case .reserve(let barrier): barrier ? "reserveBarrier" : "reserve"
      case .reserveAndWait(let barrier): barrier ? "reserveBarrierAndWait" : "reserveAndWait"
      case .park(let id): "park \(id)"
      case .begin(let id): "begin \(id)"
      case .workerStarts: "worker starts"
      case .finish(let id): "finish \(id)"
      }
    }
  }

  /// Every sequence of enqueues, reservations, parks, begins and finishes of up to four items,
  /// at widths 1 to 3: the width is never exceeded, a barrier runs alone, items are admitted and
  /// begin in enqueue order, and nothing waits that may start.
  @Test(arguments: [1, 2, 3])
  func everySequenceKeepsTheGuarantees(width: Int) {
    // Each state of the items is explored once: the guarantees are checked on every move into
    // it, and what follows it depends only on it.
    var seen: Set<[Int]> = []
    var moves = 0
    func explore(_ world: World, _ path: [Move]) {
      guard seen.insert(world.key).inserted else { return }
      for move in world.moves(maxItems: 4) {
        var next = world
        next.play(move)
        next.check(width: width, path + [move])
        moves += 1
        explore(next, path + [move])
      }
    }
    explore(World(width: width), [])
    #expect(seen.count > 1_000, "\(seen.count) states")
    #expect(moves > seen.count)
  }

  /// Played to the end (every item finished), every sequence started every item.
  @Test func everyItemStartsOnceAllFinish() {
    var world = World(width: 2)
    let moves: [Move] = [
      .enqueue(barrier: false), .reserve(barrier: false), .enqueue(barrier: true), .reserveAndWait(barrier: true),
      .enqueue(barrier: false),
    ]
    for move in moves { world.play(move) }
    // Holders come for their places, and items finish, until nothing is left to do.
    while let move = world.moves(maxItems: 0).first { world.play(move) }
    #expect(world.items.allSatisfy { $0.begun && $0.finished })
    #expect(world.beginOrder == [0, 1, 2, 3, 4])
    #expect(world.machine.running == 0)
    #expect(world.machine.waitingCount == 0)
  }

  /// A worker that finishes takes the next work itself: a busy queue of width 2 runs on two
  /// workers, each asked for once the one before has started, whatever the backlog.
  @Test func aFinishingWorkerTakesTheNextWork() {
    var machine = Machine(width: 2)
    var workersAskedFor = 0
    for id in 0..<100 {
      if case .worker = machine.enqueue(id, barrier: false).other { workersAskedFor += 1 }
    }
    #expect(workersAskedFor == 1)
    var first = machine.workerStarted()
    guard case .worker = first.other, let firstWork = first.next?.work else {
      Issue.record("the first worker took no work, or asked for no second worker")
      return
    }
    first.other = nil
    let second = machine.workerStarted()
    #expect(second.other == nil)
    var ran = [firstWork]
    var current: [Int] = [firstWork]
    if let work = second.next?.work {
      ran.append(work)
      current.append(work)
    }
    while !current.isEmpty {
      current.removeFirst()
      let starts = machine.finish(barrier: false, byWorker: true)
      #expect(starts.other == nil)
      if let next = starts.next {
        ran.append(next.work)
        current.append(next.work)
      }
    }
    #expect(ran == Array(0..<100))
  }
}
