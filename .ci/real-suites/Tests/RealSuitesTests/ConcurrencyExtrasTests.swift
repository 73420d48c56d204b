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
