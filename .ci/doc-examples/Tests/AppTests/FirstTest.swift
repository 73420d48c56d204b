// The README's first test, as written there: `incrementsArriveInOrder` fails by design (the
// README shows its failure, and `.ci/docs.sh` checks that output); the queued version passes.
import AsyncQueue
import QueueTesting
import Testing

actor Counter {
  private(set) var count = 0
  private(set) var outOfOrder = 0

  func increment(expecting expected: Int) {
    count += 1
    if count != expected { outOfOrder += 1 }
  }
}

@Test(.controlledScheduling(.random(100, seed: 1)))
func incrementsArriveInOrder() async {
  let counter = Counter()
  var tasks: [Task<Void, Never>] = []
  for index in 1...100 {
    tasks.append(Task { await counter.increment(expecting: index) })   // one task per call: unordered
  }
  for task in tasks { await task.value }
  #expect(await counter.outOfOrder == 0)
}

@Test(.controlledScheduling(.random(100, seed: 1)))
func queuedIncrementsArriveInOrder() async {
  let counter = Counter()
  let queue = FIFOQueue()
  for index in 1...100 {
    queue.enqueue { await counter.increment(expecting: index) }   // starts and finishes in enqueue order
  }
  await queue.enqueueAndWait {}
  #expect(await counter.outOfOrder == 0)
  expectQueueGuarantees()   // the queues' own FIFO and actor guarantees, checked over this run
}

// The README's clock examples: the system clock measures a sleep's length in a run, and
// `VirtualClock` reads the run's virtual time.
@Test(.controlledScheduling())
func aSleepMeasuresItsTimeOnTheSystemClock() async throws {
  let start = ContinuousClock.now
  try await Task.sleep(for: .seconds(5))
  #expect(start.duration(to: .now) >= .seconds(5))
}

@Test(.controlledScheduling())
func virtualTimeMovesAcrossASleep() async throws {
  let clock = VirtualClock()
  let start = clock.now
  try await clock.sleep(for: .seconds(5))
  #expect(start.duration(to: clock.now) >= .seconds(5))
}
