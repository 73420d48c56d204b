// A test of swift-concurrency-extras 1.4.3 (MIT License; Copyright (c) 2023 Point-Free), from its
// ActorIsolatedTests, ported to Swift Testing (`XCTAssertEqual` is `#expect`).
import ConcurrencyExtras
import QueueTesting
import Testing

@Suite(.controlledScheduling())
struct ActorIsolatedTests {
  @available(*, deprecated)
  @Test func testAsyncWithValue() async {
    let numbers = ActorIsolated<Set<Int>>([])

    await numbers.setValue([0])

    let task1 = Task {
      await numbers.withValue {
        _ = $0.insert(1)
      }
    }
    let task2 = Task {
      await numbers.withValue {
        _ = $0.insert(2)
      }
    }
    let task3 = Task {
      await numbers.withValue {
        _ = $0.insert(3)
      }
    }

    await task1.value
    await task2.value
    await task3.value
    let value = await numbers.value
    #expect(value == [0, 1, 2, 3])
  }
}

// Tests of swift-concurrency-extras 1.4.3 (MIT License; Copyright (c) 2023 Point-Free), from its
// MainSerialExecutorTests, ported to Swift Testing (`XCTAssertEqual` is `#expect`). Under
// `withMainSerialExecutor` every global job goes to the main actor's serial queue, in order: the
// harness hands the run's jobs to that hook too, so the order holds on every schedule.
@Suite(.controlledScheduling())
struct MainSerialExecutorTests {
  @Test func testSerializedExecution() async {
    let xs = LockIsolated<[Int]>([])
    await withMainSerialExecutor {
      await withTaskGroup(of: Void.self) { group in
        for x in 1...1000 {
          group.addTask {
            xs.withValue { $0.append(x) }
          }
        }
      }
    }
    #expect(Array(1...1000) == xs.value)
  }

  @Test func testSerializedExecution_YieldEveryOtherValue() async {
    let xs = LockIsolated<[Int]>([])
    await withMainSerialExecutor {
      await withTaskGroup(of: Void.self) { group in
        for x in 1...1000 {
          group.addTask {
            if x.isMultiple(of: 2) { await Task.yield() }
            xs.withValue { $0.append(x) }
          }
        }
      }
    }
    #expect(Array(0...499).map { $0 * 2 + 1 } + Array(1...500).map { $0 * 2 } == xs.value)
  }

  @Test func testSerializedExecution_UnstructuredTasks() async {
    await withMainSerialExecutor {
      let xs = LockIsolated<[Int]>([])
      for x in 1...1000 {
        Task { xs.withValue { $0.append(x) } }
      }
      while xs.count < 1_000 { await Task.yield() }
      #expect(Array(1...1000) == xs.value)
    }
  }
}
