import AsyncQueue
import QueueWorkloads
import Testing

// The three Counter examples that define what the queues promise (a FIFO queue, an actor queue,
// the main actor's queue), written as a user of the 0.6-style API would write them. Each passes only if the queue keeps
// start order: the count an item observes is its place in line.

@Suite("Counter examples", .timeLimit(.minutes(5)), .hangGuard)
struct CounterExamplesTests {
  @Test func testFIFOQueueOrdering() async {
    actor Counter {
      nonisolated
        func incrementAndAssertCountEquals(_ expectedCount: Int)
      {
        queue.enqueue {
          await self.increment()
          let incrementedCount = await self.count
          #expect(incrementedCount == expectedCount)  // always succeeds
        }
      }

      func flushQueue() async {
        await queue.enqueueAndWait {}
      }

      func increment() {
        count += 1
      }

      var count = 0

      private let queue = FIFOQueue()
    }

    let counter = Counter()
    for iteration in 1...100 {
      counter.incrementAndAssertCountEquals(iteration)
    }
    // Wait for all enqueued tasks to finish.
    await counter.flushQueue()
    #expect(await counter.count == 100)
  }

  @Test func testActorQueueOrdering() async {
    actor Counter {
      init() {
        // Adopting the execution context in `init` satisfies requirement #2 above.
        queue.adoptExecutionContext(of: self)
      }

      nonisolated
        func incrementAndAssertCountEquals(_ expectedCount: Int)
      {
        queue.enqueue { myself in
          myself.count += 1
          #expect(expectedCount == myself.count)  // always succeeds
        }
      }

      func flushQueue() async {
        await queue.enqueueAndWait { _ in }
      }

      private(set) var count = 0
      // Making the queue a private let constant satisfies requirement #1 above.
      private let queue = ActorQueue<Counter>()
    }

    let counter = Counter()
    for iteration in 1...100 {
      counter.incrementAndAssertCountEquals(iteration)
    }
    // Wait for all enqueued tasks to finish.
    await counter.flushQueue()
    #expect(await counter.count == 100)
  }

  @MainActor
  @Test func testMainActorQueueOrdering() async {
    @MainActor
    final class Counter {
      nonisolated
        func incrementAndAssertCountEquals(_ expectedCount: Int)
      {
        MainActorQueue.shared.enqueue {
          self.increment()
          let incrementedCount = self.count
          #expect(incrementedCount == expectedCount)  // always succeeds
        }
      }

      func flushQueue() async {
        await MainActorQueue.shared.enqueueAndWait {}
      }

      func increment() {
        count += 1
      }

      var count = 0
    }

    let counter = Counter()
    for iteration in 1...100 {
      counter.incrementAndAssertCountEquals(iteration)
    }
    // Wait for all enqueued tasks to finish.
    await counter.flushQueue()
    #expect(counter.count == 100)
  }
}
