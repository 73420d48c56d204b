// Tests of swift-async-algorithms 1.1.4 (Apache License 2.0; Copyright (c) 2022 Apple Inc. and
// the Swift project authors), from its TestMerge, TestZip, TestCombineLatest, TestAdjacentPairs
// and TestChain, ported to Swift Testing: XCTest's expectations are `Expectation`,
// `XCTAssertEqual` and `XCTAssertNil` are `#expect`; the bodies are otherwise unchanged.
// Each suite runs under the default controlled scheduling, as a user's suite would.
import AsyncAlgorithms
import QueueTesting
import Testing

/// An endless synchronous sequence (the package's own test support type).
struct Indefinite<Element: Sendable>: Sequence, IteratorProtocol, Sendable {
  let value: Element

  func next() -> Element? {
    return value
  }

  func makeIterator() -> Indefinite<Element> {
    self
  }
}

@Suite(.controlledScheduling())
struct TestMerge2 {
  @Test func test_merge_makes_sequence_with_elements_from_sources_when_first_is_longer() async {
    let first = [1, 2, 3, 4, 5, 6, 7]
    let second = [8, 9, 10]

    let merged = merge(first.async, second.async)
    var collected = [Int]()
    let expected = Set(first + second).sorted()

    var iterator = merged.makeAsyncIterator()
    while let item = await iterator.next() {
      collected.append(item)
    }
    let pastEnd = await iterator.next()

    #expect(pastEnd == nil)
    #expect(Set(collected).sorted() == expected)
  }

  @Test func test_merge_finishes_when_iteration_task_is_cancelled() async {
    let source1 = Indefinite(value: "test1")
    let source2 = Indefinite(value: "test2")
    let sequence = merge(source1.async, source2.async)
    let finished = Expectation(description: "finished")
    let iterated = Expectation(description: "iterated")
    let task = Task {
      var firstIteration = false
      for await _ in sequence {
        if !firstIteration {
          firstIteration = true
          iterated.fulfill()
        }
      }
      finished.fulfill()
    }
    // ensure the other task actually starts
    await iterated.fulfillment()
    // cancellation should ensure the loop finishes
    // without regards to the remaining underlying sequence
    task.cancel()
    await finished.fulfillment()
  }

  @Test func test_merge_when_cancelled() async {
    let t = Task {
      try? await Task.sleep(nanoseconds: 1_000_000_000)
      let c1 = Indefinite(value: "test1").async
      let c2 = Indefinite(value: "test1").async
      for await _ in merge(c1, c2) {}
    }
    t.cancel()
  }
}

@Suite(.controlledScheduling())
struct TestZip2 {
  @Test func test_zip_makes_sequence_equivalent_to_synchronous_zip_when_first_is_longer() async {
    let a = [1, 2, 3, 4, 5]
    let b = ["a", "b", "c"]

    let expected = Array(zip(a, b))
    let actual = await Array(zip(a.async, b.async))
    // XCTAssertEqual over pairs, which are not Equatable.
    #expect(expected.elementsEqual(actual, by: ==))
  }

  @Test func test_zip_finishes_when_iteration_task_is_cancelled() async {
    let source1 = Indefinite(value: "test1")
    let source2 = Indefinite(value: "test2")
    let sequence = zip(source1.async, source2.async)
    let finished = Expectation(description: "finished")
    let iterated = Expectation(description: "iterated")
    let task = Task {
      var firstIteration = false
      for await _ in sequence {
        if !firstIteration {
          firstIteration = true
          iterated.fulfill()
        }
      }
      finished.fulfill()
    }
    // ensure the other task actually starts
    await iterated.fulfillment()
    // cancellation should ensure the loop finishes
    // without regards to the remaining underlying sequence
    task.cancel()
    await finished.fulfillment()
  }
}

// The next three iterate a synchronous base until the test cancels the iterating task: the loop
// never suspends, so its job runs until another task acts. On real threads the cancelling task
// runs on another thread meanwhile; under the trait the run leaves one-job-at-a-time once that job
// overstays its slice, and goes on beside it.
@Suite(.controlledScheduling())
struct TestCombineLatest2 {
  @Test func test_cancellation() async {
    let source1 = Indefinite(value: "test1")
    let source2 = Indefinite(value: "test2")
    let sequence = combineLatest(source1.async, source2.async)
    let finished = Expectation(description: "finished")
    let iterated = Expectation(description: "iterated")
    let task = Task {
      var firstIteration = false
      for await _ in sequence {
        if !firstIteration {
          firstIteration = true
          iterated.fulfill()
        }
      }
      finished.fulfill()
    }
    // ensure the other task actually starts
    await iterated.fulfillment()
    // cancellation should ensure the loop finishes
    // without regards to the remaining underlying sequence
    task.cancel()
    await finished.fulfillment()
  }
}

@Suite(.controlledScheduling())
struct TestAdjacentPairs {
  @Test func test_adjacentPairs_finishes_when_iteration_task_is_cancelled() async {
    let source = Indefinite(value: 0)
    let sequence = source.async.adjacentPairs()
    let finished = Expectation(description: "finished")
    let iterated = Expectation(description: "iterated")

    let task = Task {
      var firstIteration = false
      for await _ in sequence {
        if !firstIteration {
          firstIteration = true
          iterated.fulfill()
        }
      }
      finished.fulfill()
    }

    // ensure the other task actually starts

    await iterated.fulfillment()
    // cancellation should ensure the loop finishes
    // without regards to the remaining underlying sequence
    task.cancel()
    await finished.fulfillment()
  }
}

@Suite(.controlledScheduling())
struct TestChain2 {
  @Test func test_chain2_finishes_when_task_is_cancelled() async {
    let finished = Expectation(description: "finished")
    let iterated = Expectation(description: "iterated")

    let source = Indefinite(value: "test")
    let sequence = chain(source.async, ["past indefinite"].async)

    let task = Task {
      var firstIteration = false
      for await _ in sequence {
        if !firstIteration {
          firstIteration = true
          iterated.fulfill()
        }
      }
      finished.fulfill()
    }

    // ensure the other task actually starts
    await iterated.fulfillment()

    // cancellation should ensure the loop finishes
    // without regards to the remaining underlying sequence
    task.cancel()

    await finished.fulfillment()
  }
}
