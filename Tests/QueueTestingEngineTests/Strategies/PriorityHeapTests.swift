import QueueWorkloads
import Testing

@testable import QueueTestingEngine

@Suite("PriorityHeap", .timeLimit(.minutes(5)), .hangGuard)
struct PriorityHeapTests {
  /// Entries come out highest priority first, oldest first among equals, over random pushes and
  /// pops; a copy is a value: changing one leaves the other as it was.
  @Test(arguments: 0..<10)
  func popsInOrderAndCopiesAreValues(seed: UInt64) {
    var dice = SplitMix64(seed: seed)
    var heap = PriorityHeap()
    var model: [PriorityHeap.Entry] = []
    for id in 0..<500 {
      if dice.next() % 3 != 0 || model.isEmpty {
        let entry = PriorityHeap.Entry(priority: Int(dice.next() % 8) - 4, id: UInt64(id), task: id)
        heap.push(entry)
        model.append(entry)
      } else {
        let best = model.min { $0.precedes($1) }!
        #expect(heap.top == best)
        let copy = heap
        heap.popTop()
        model.removeAll { $0 == best }
        #expect(copy.top == best, "popping a copy changed the original")
      }
    }
    while let top = heap.top {
      #expect(top == model.min { $0.precedes($1) })
      heap.popTop()
      model.removeAll { $0 == top }
    }
    #expect(model.isEmpty && heap.isEmpty)
  }
}
