import Testing

@testable import AsyncQueue

@Suite("SerialDrainStateMachine")
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
    let outcome11 = machine.release()
    #expect(outcome11 == .startDrainer)
    #expect(machine.isTurnHeld)  // handed to the new drainer
    var batch: [[Int]] = []
    let outcome12 = machine.nextBatch(into: &batch)
    #expect(outcome12 == .run)
    let outcome13 = machine.nextBatch(into: &batch)
    #expect(outcome13 == .stop)
    let outcome14 = machine.acquireIfIdle()
    #expect(outcome14)
    let outcome15 = machine.release()
    #expect(outcome15 == .none)
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
          let action = machine.release()
          #expect((action == .startDrainer) == !model.pending.isEmpty)
          model.holder = action == .startDrainer ? .drainer : .none
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

  struct Model {
    enum Holder { case none, inline, drainer }
    var holder = Holder.none
    var pending: [Int] = []
    var ran: [Int] = []
    var nextValue = 0
  }
}

@Suite("Queue entry sizes")
struct QueueEntrySizeTests {
  /// A FIFO backlog costs one closure per item: 16 bytes (the 1 M-item memory target rests on it).
  @Test func fifoEntryIsOneClosure() {
    #expect(MemoryLayout<FIFOQueue.Job>.stride == 16)
  }

  /// An actor-queue entry adds the job/ticket tag.
  @Test func actorEntryIsAtMostThreeWords() {
    #expect(MemoryLayout<ActorQueue<Journal>.Entry>.stride <= 24)
  }
}
