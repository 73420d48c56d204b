import QueueWorkloads
import Testing

@testable import AsyncQueue

@Suite("SerialDrainStateMachine", .timeLimit(.minutes(5)), .hangGuard)
struct SerialDrainStateMachineTests {
  typealias Machine = SerialDrainStateMachine<Int>

  @Test func firstEnqueueStartsOneDrainerLaterOnesDoNot() {
    var machine = Machine()
    let outcome1 = machine.enqueue(1)
    #expect(outcome1 == .startDrainer)
    let outcome2 = machine.enqueue(2)
    #expect(outcome2 == .none)
    let outcome3 = machine.enqueue(3)
    #expect(outcome3 == .none)
    #expect(machine.isTurnHeld)
    #expect(machine.pendingCount == 3)
  }

  @Test func drainerTakesBatchesInOrderThenStops() {
    var machine = Machine()
    _ = machine.enqueue(1)
    _ = machine.enqueue(2)
    var batch: [[Int]] = []
    let outcome4 = machine.nextBatch(into: &batch)
    #expect(outcome4 == .run)
    #expect(batch.joined().elementsEqual([1, 2]))
    _ = machine.enqueue(3)
    let outcome5 = machine.nextBatch(into: &batch)
    #expect(outcome5 == .run)
    #expect(batch.joined().elementsEqual([3]))
    let outcome6 = machine.nextBatch(into: &batch)
    #expect(outcome6 == .stop)
    #expect(batch.isEmpty)
    #expect(!machine.isTurnHeld)
    // Idle again: the next enqueue needs a new drainer.
    let outcome7 = machine.enqueue(4)
    #expect(outcome7 == .startDrainer)
  }

  @Test func idleAcquireOnlyWhenNothingHeldOrPending() {
    var machine = Machine()
    let outcome8 = machine.acquireIfIdle()
    #expect(outcome8)
    let outcome9 = machine.acquireIfIdle()
    #expect(!outcome9)
    // Work enqueued while the idle-path caller holds the turn waits for it.
    let outcome10 = machine.enqueue(1)
    #expect(outcome10 == .none)
    let outcome11 = machine.passTurn(isPlace: { _ in false })
    #expect(Self.startsDrainer(outcome11))
    #expect(machine.isTurnHeld)  // handed to the new drainer
    var batch: [[Int]] = []
    let outcome12 = machine.nextBatch(into: &batch)
    #expect(outcome12 == .run)
    let outcome13 = machine.nextBatch(into: &batch)
    #expect(outcome13 == .stop)
    let outcome14 = machine.acquireIfIdle()
    #expect(outcome14)
    let outcome15 = machine.passTurn(isPlace: { _ in false })
    #expect(Self.isIdle(outcome15))
    #expect(!machine.isTurnHeld)
  }

  /// A burst is stored in chunks of at most `chunkCapacity` entries, handed over in order.
  @Test func burstsAreChunkedAndKeepTheirOrder() {
    var machine = Machine()
    let count = Machine.chunkCapacity * 3 + 1
    for index in 0..<count { _ = machine.enqueue(index) }
    #expect(machine.pendingCount == count)
    var batch: [[Int]] = []
    let outcomeChunks = machine.nextBatch(into: &batch)
    #expect(outcomeChunks == .run)
    #expect(batch.count == 4)
    #expect(batch.allSatisfy { $0.count <= Machine.chunkCapacity })
    #expect(Array(batch.joined()) == Array(0..<count))
    #expect(machine.pendingCount == 0)
  }

  /// Every interleaving of up to 8 operations (enqueue, acquire, release, nextBatch) from a model:
  /// the machine never loses, duplicates or reorders an entry, and the turn is held exactly when
  /// a model holder exists.
  @Test func exhaustiveAgainstModel() {
    enum Op: CaseIterable { case enqueue, acquire, release, next }
    func explore(_ machine: Machine, model: Model, depth: Int) -> Int {
      guard depth > 0 else { return 1 }
      var explored = 0
      for op in Op.allCases {
        var machine = machine
        var model = model
        switch op {
        case .enqueue:
          let value = model.nextValue
          model.nextValue += 1
          let action = machine.enqueue(value)
          model.pending.append(value)
          #expect((action == .startDrainer) == (model.holder == .none))
          if action == .startDrainer { model.holder = .drainer }
        case .acquire:
          let acquired = machine.acquireIfIdle()
          #expect(acquired == (model.holder == .none && model.pending.isEmpty))
          if acquired { model.holder = .inline }
        case .release:
          guard model.holder == .inline else { continue }
          let action = machine.passTurn(isPlace: { _ in false })
          #expect(Self.startsDrainer(action) == !model.pending.isEmpty)
          model.holder = Self.startsDrainer(action) ? .drainer : .none
        case .next:
          guard model.holder == .drainer else { continue }
          var batch: [[Int]] = []
          let action = machine.nextBatch(into: &batch)
          #expect(Array(batch.joined()) == model.pending)
          model.ran += batch.joined()
          model.pending = []
          if action == .stop { model.holder = .none }
        }
        #expect(machine.isTurnHeld == (model.holder != .none))
        #expect(machine.pendingCount == model.pending.count)
        #expect(model.ran == Array(0..<model.ran.count))
        explored += explore(machine, model: model, depth: depth - 1)
      }
      return explored
    }
    let explored = explore(Machine(), model: Model(), depth: 8)
    #expect(explored > 1000)
  }

  static func startsDrainer(_ action: Machine.PassAction) -> Bool {
    if case .startDrainer = action { return true }
    return false
  }

  static func isIdle(_ action: Machine.PassAction) -> Bool {
    if case .idle = action { return true }
    return false
  }

  // MARK: The turn passes from place to place

  /// Places are numbered in line order; a finishing holder hands the turn to the next place, or
  /// asks for a drainer when work is next, or leaves the queue idle.
  @Test func turnPassesToTheNextPlaceOrToADrainer() {
    var machine = Machine()
    let step1 = machine.acquireIfIdle()
    #expect(step1)
    let first = machine.reservePlace(marker: -1)
    let second = machine.reservePlace(marker: -1)
    #expect(first.place == 0 && first.action == .none)
    #expect(second.place == 1 && second.action == .none)
    _ = machine.enqueue(7)
    // The idle-path holder finishes: place 0 is next.
    guard case .grant(let marker) = machine.passTurn(isPlace: { $0 < 0 }) else {
      Issue.record("expected the turn to pass to place 0")
      return
    }
    #expect(marker == -1)
    let nobodyParked = machine.grantNextPlace() == nil  // the holder claims the turn on arrival
    #expect(nobodyParked)
    let step2 = machine.claimPlace(1)
    #expect(!step2)
    let step3 = machine.claimPlace(0)
    #expect(step3)
    let claimedAgain = machine.claimPlace(0)  // claimed once only
    #expect(!claimedAgain)
    guard case .grant = machine.passTurn(isPlace: { $0 < 0 }) else {
      Issue.record("expected the turn to pass to place 1")
      return
    }
    let step4 = machine.grantNextPlace()
    #expect(step4 == nil)
    let step5 = machine.claimPlace(1)
    #expect(step5)
    // Work is next: a drainer must start, and it inherits the turn with the work still in line.
    guard case .startDrainer = machine.passTurn(isPlace: { $0 < 0 }) else {
      Issue.record("expected a drainer for the work entry")
      return
    }
    #expect(machine.isTurnHeld)
    var batch: [[Int]] = []
    let step6 = machine.nextBatch(into: &batch)
    #expect(step6 == .run)
    #expect(Array(batch.joined()) == [7])
    let step7 = machine.nextBatch(into: &batch)
    #expect(step7 == .stop)
    #expect(!machine.isTurnHeld)
  }

  /// A drainer that reaches a place hands the rest of its batch back, ahead of newer entries, and
  /// the place takes the turn; across a chunk boundary too.
  @Test func drainerHandsBackTheRestOfItsBatchAtAPlace() {
    for markerIndex in [0, 5, Machine.chunkCapacity - 1, Machine.chunkCapacity, Machine.chunkCapacity + 3] {
      var machine = Machine()
      let count = Machine.chunkCapacity + 10
      var line: [Int] = []
      for index in 0..<count {
        if index == markerIndex {
          _ = machine.reservePlace(marker: -1)
          line.append(-1)
        } else {
          _ = machine.enqueue(index)
          line.append(index)
        }
      }
      var batch: [[Int]] = []
      let step8 = machine.nextBatch(into: &batch)
      #expect(step8 == .run)
      _ = machine.enqueue(count)  // arrives while the drainer works
      let chunk = markerIndex / Machine.chunkCapacity
      let index = markerIndex % Machine.chunkCapacity
      #expect(batch[chunk][index] == -1)
      machine.handBack(batch, after: index, inChunk: chunk)
      let step9 = machine.grantNextPlace()
      #expect(step9 == nil)
      let step10 = machine.claimPlace(0)
      #expect(step10)
      // The place finishes: the rest of the old batch, then the newer entry, in order.
      guard case .startDrainer = machine.passTurn(isPlace: { $0 < 0 }) else {
        Issue.record("marker at \(markerIndex): expected a drainer for what follows the place")
        continue
      }
      let step11 = machine.nextBatch(into: &batch)
      #expect(step11 == .run)
      #expect(Array(batch.joined()) == Array(line[(markerIndex + 1)...]) + [count], "marker at \(markerIndex)")
      let step12 = machine.nextBatch(into: &batch)
      #expect(step12 == .stop)
    }
  }

  /// Every interleaving of up to 8 operations of a FIFO line (work, places reserved by callers
  /// that run their own work, a holder finishing, a drainer running its batch): every entry is
  /// served once, in line order, and the turn is held exactly when someone holds it.
  @Test func turnPassingExhaustiveAgainstModel() {
    enum Op: CaseIterable { case work, reserve, finish, drain }
    enum Holder: Equatable { case none, place, drainer }
    struct Line {
      var holder = Holder.none
      var waiting: [Int] = []  // the machine's entries in line: work ids, places as -(place + 1)
      var waitingIDs: [Int] = []  // the id of each waiting entry, in the same order
      var served: [Int] = []  // ids in the order they got the turn
      var nextID = 0
      var nextPlace = 0

      mutating func serveFront() {
        waiting.removeFirst()
        served.append(waitingIDs.removeFirst())
      }
    }
    func explore(_ machine: Machine, _ model: Line, depth: Int) -> Int {
      guard depth > 0 else { return 1 }
      var explored = 0
      for op in Op.allCases {
        var machine = machine
        var model = model
        switch op {
        case .work:
          let id = model.nextID
          model.nextID += 1
          let action = machine.enqueue(id)
          model.waiting.append(id)
          model.waitingIDs.append(id)
          #expect((action == .startDrainer) == (model.holder == .none))
          if action == .startDrainer { model.holder = .drainer }
        case .reserve:
          let id = model.nextID
          model.nextID += 1
          if machine.acquireIfIdle() {
            #expect(model.holder == .none && model.waiting.isEmpty)
            model.holder = .place
            model.served.append(id)
          } else {
            let (place, action) = machine.reservePlace(marker: -(model.nextPlace + 1))
            #expect(place == UInt64(model.nextPlace) && action == .none)
            model.nextPlace += 1
            model.waiting.append(-(Int(place) + 1))
            model.waitingIDs.append(id)
          }
        case .finish:
          guard model.holder == .place else { continue }
          switch machine.passTurn(isPlace: { $0 < 0 }) {
          case .idle:
            #expect(model.waiting.isEmpty)
            model.holder = .none
          case .startDrainer:
            #expect((model.waiting.first ?? -1) >= 0)
            model.holder = .drainer
          case .grant(let marker):
            #expect(marker == model.waiting.first)
            let place = -marker - 1
            let step13 = machine.grantNextPlace()
            #expect(step13 == nil)
            let step14 = machine.claimPlace(UInt64(place))
            #expect(step14)
            model.serveFront()
          }
        case .drain:
          guard model.holder == .drainer else { continue }
          var batch: [[Int]] = []
          if machine.nextBatch(into: &batch) == .stop {
            #expect(model.waiting.isEmpty)
            model.holder = .none
            break
          }
          #expect(Array(batch.joined()) == model.waiting)
          run: for chunk in batch.indices {
            for index in batch[chunk].indices {
              let entry = batch[chunk][index]
              model.serveFront()
              if entry < 0 {
                machine.handBack(batch, after: index, inChunk: chunk)
                let step15 = machine.grantNextPlace()
                #expect(step15 == nil)
                let step16 = machine.claimPlace(UInt64(-entry - 1))
                #expect(step16)
                model.holder = .place
                break run
              }
            }
          }
        }
        #expect(machine.isTurnHeld == (model.holder != .none))
        #expect(machine.pendingCount == model.waiting.count)
        // Every entry got the turn once, in the order it was enqueued.
        #expect(model.served == Array(0..<model.served.count))
        explored += explore(machine, model, depth: depth - 1)
      }
      return explored
    }
    let explored = explore(Machine(), Line(), depth: 8)
    #expect(explored > 1000)
  }

  struct Model {
    enum Holder { case none, inline, drainer }
    var holder = Holder.none
    var pending: [Int] = []
    var ran: [Int] = []
    var nextValue = 0
  }
}

@Suite("Queue entry sizes", .timeLimit(.minutes(5)), .hangGuard)
struct QueueEntrySizeTests {
  /// A FIFO backlog costs one closure per item: 16 bytes (the 1 M-item memory target rests on it),
  /// and a place marker needs no more.
  @Test func fifoEntryIsOneClosure() {
    #expect(MemoryLayout<FIFOQueue.Job>.stride == 16)
  }

  /// An actor-queue entry is a job or a place mark.
  @Test func actorEntryIsAtMostThreeWords() {
    #expect(MemoryLayout<ActorQueue<Journal>.Entry>.stride <= 24)
  }

  /// A full chunk of either queue's entries, with the array's header, stays below 64 KiB, where
  /// glibc's `free` starts consolidating every small freed block (a measured slowdown).
  @Test func fullChunksStayBelowMallocsConsolidationThreshold() {
    let header = 32
    let fifo = SerialDrainStateMachine<FIFOQueue.Job>.chunkCapacity * MemoryLayout<FIFOQueue.Job>.stride
    let actor =
      SerialDrainStateMachine<ActorQueue<Journal>.Entry>.chunkCapacity * MemoryLayout<ActorQueue<Journal>.Entry>.stride
    #expect(fifo + header < 65_536)
    #expect(actor + header < 65_536)
  }
}
