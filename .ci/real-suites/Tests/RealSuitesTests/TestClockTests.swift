// Tests of swift-clocks 1.1.1 (MIT License; Copyright (c) 2022 Point-Free), from its
// TestClockTests, ported to Swift Testing: the test case's `clock` property is a local clock, its
// `tearDown` check (`checkSuspension()`) ends each test, `XCTAssertEqual` is `#expect`; the bodies
// are otherwise unchanged. `TestClock` yields many times ("mega yield") so that other tasks can
// run: under the harness those yields must let them.
import Clocks
import ConcurrencyExtras
import QueueTesting
import Testing

@Suite(.controlledScheduling())
struct TestClockTests {
  @available(*, deprecated, message: "uses ActorIsolated, as the original test does")
  @Test func testAdvance() async throws {
    let clock = TestClock()
    let isFinished = ActorIsolated(false)
    Task {
      try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
      await isFinished.setValue(true)
    }

    var checkIsFinished = await isFinished.value
    #expect(checkIsFinished == false)

    await clock.advance(by: .seconds(1))
    checkIsFinished = await isFinished.value
    #expect(checkIsFinished == true)
    try await clock.checkSuspension()
  }

  @Test func testAdvanceWithReentrantUnitsOfWork() async throws {
    let clock = TestClock()
    let task = Task {
      var count = 0
      try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
      count += 1
      try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
      count += 1
      try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
      count += 1
      try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
      count += 1
      try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
      count += 1
      return count
    }

    await clock.advance(by: .seconds(5))
    let ticks = try await task.value
    #expect(ticks == 5)
    try await clock.checkSuspension()
  }

  @available(*, deprecated, message: "uses ActorIsolated, as the original test does")
  @Test func testRun() async throws {
    let clock = TestClock()
    let isFinished = ActorIsolated(false)
    Task {
      try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
      await isFinished.setValue(true)
    }
    try await Task.sleep(for: .seconds(0.1))

    var checkIsFinished = await isFinished.value
    #expect(checkIsFinished == false)

    await clock.run(timeout: .seconds(30))
    checkIsFinished = await isFinished.value
    #expect(checkIsFinished == true)
    try await clock.checkSuspension()
  }

  @Test func testRunMultipleUnitsOfWork() async throws {
    let clock = TestClock()
    let timer = clock.timer(interval: .seconds(1))
      .prefix(10)

    let timerStarted = LockIsolated(false)
    let task = Task {
      timerStarted.withValue { $0 = true }
      var ticks = 0
      for await _ in timer {
        ticks += 1
      }
      return ticks
    }

    while !timerStarted.withValue(\.self) { await Task.yield() }
    await clock.run(timeout: .seconds(30))
    let ticks = await task.value
    #expect(ticks == 10)
    try await clock.checkSuspension()
  }

  @Test func testRunWithReentrantUnitsOfWork() async throws {
    let clock = TestClock()
    let taskStarted = LockIsolated(false)
    let task = Task {
      taskStarted.withValue { $0 = true }
      var count = 0
      try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
      count += 1
      try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
      count += 1
      try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
      count += 1
      try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
      count += 1
      try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
      count += 1
      return count
    }

    while !taskStarted.withValue(\.self) { await Task.yield() }
    await clock.run(timeout: .seconds(30))
    let ticks = try await task.value
    #expect(ticks == 5)
    try await clock.checkSuspension()
  }

  @Test func testCheckScheduledWork() async throws {
    let clock = TestClock()
    Task { try await clock.sleep(for: .seconds(1)) }

    let didThrow: Bool
    do {
      try await clock.checkSuspension()
      Issue.record()
      return
    } catch is SuspensionError {
      didThrow = true
    } catch {
      Issue.record()
      return
    }

    #expect(didThrow == true)
    await clock.advance(by: .seconds(1))
    try await clock.checkSuspension()
  }

  @Test func testCooperativeCancellation() async throws {
    let clock = TestClock()
    actor DidFinish {
      var value = false
      func finish() { self.value = true }
    }
    let didFinish = DidFinish()
    let task = Task {
      try await clock.sleep(for: .seconds(1))
      await didFinish.finish()
    }

    task.cancel()
    await clock.run(timeout: .seconds(5))

    let actualDidFinish = await didFinish.value
    #expect(actualDidFinish == false)
    try await clock.checkSuspension()
  }

  @Test func testNow() async throws {
    let clock = TestClock()
    let task = Task {
      try await clock.sleep(for: .seconds(5))
    }
    let start = clock.now
    await clock.advance(by: .seconds(5))
    #expect(start.advanced(by: .seconds(5)) == clock.now)
    try await task.value
    try await clock.checkSuspension()
  }

  @Test func testRunSorting() async throws {
    let clock = TestClock()
    let secondTaskStarted = LockIsolated(false)
    let task = Task {
      try await withThrowingTaskGroup(of: Int.self, returning: [Int].self) { group in
        let firstTaskStarted = LockIsolated(false)
        group.addTask {
          firstTaskStarted.withValue { $0 = true }
          try await clock.sleep(for: .seconds(2))
          return 2
        }
        while !firstTaskStarted.withValue(\.self) { await Task.yield() }
        group.addTask {
          secondTaskStarted.withValue { $0 = true }
          try await clock.sleep(for: .seconds(1))
          return 1
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
    }

    while !secondTaskStarted.withValue(\.self) { await Task.yield() }
    await clock.run(timeout: .seconds(5))
    let values = try await task.value

    #expect(values == [1, 2])
    try await clock.checkSuspension()
  }
}
