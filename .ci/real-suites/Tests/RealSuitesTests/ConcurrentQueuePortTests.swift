// Tests of mattmassicotte/Queue (BSD-3-Clause; Copyright (c) 2022, Matt Massicotte), from its
// QueueTests, ported to Swift Testing and to AsyncQueue's ConcurrentQueue: `addOperation` is
// `Task(on:)`, `addBarrierOperation` is `Task(barrierOn:)`, a serial `AsyncQueue()` is a queue of
// width 1 and a concurrent one a queue of width 8 (wider than any test needs), and
// `fulfillment(of:enforceOrder:)` is an order recorded as each expectation is fulfilled. Where the
// original let a task sleep 100 ms so that another would go first, that task waits for the other
// instead: on real threads a sleep decides nothing. Each body runs twice: on real threads, and
// under the default `.controlledScheduling()` trait.
import AsyncQueue
import Foundation
import QueueTesting
import Synchronization
import Testing

/// The order in which the ported tests' expectations were fulfilled.
final class FulfillmentOrder: Sendable {
  private let names = Mutex<[String]>([])

  func fulfill(_ name: String) { names.withLock { $0.append(name) } }

  var order: [String] { names.withLock { $0 } }
}

enum ConcurrentQueuePort {
  static func serialOrder() async {
    let queue = ConcurrentQueue(width: 1)
    var tasks = [Task<TimeInterval, Never>]()
    for _ in 0..<1_000 {
      tasks.append(Task(on: queue) { Date().timeIntervalSince1970 })
    }
    var array = [TimeInterval]()
    for task in tasks { array.append(await task.value) }
    #expect(array == array.sorted())
  }

  static func barriersAreSerial() async {
    let queue = ConcurrentQueue(width: 8)
    var tasks = [Task<TimeInterval, Never>]()
    for _ in 0..<1_000 {
      tasks.append(Task(barrierOn: queue) { Date().timeIntervalSince1970 })
    }
    var array = [TimeInterval]()
    for task in tasks { array.append(await task.value) }
    #expect(array == array.sorted())
  }

  static func throwingTask() async {
    let queue = ConcurrentQueue(width: 1)
    let taskA = Task(on: queue) { () throws -> String in throw CancellationError() }
    let taskB = Task(on: queue) { "B" }
    await #expect(throws: CancellationError.self) { try await taskA.value }
    #expect(await taskB.value == "B")
  }

  static func concurrentQueue() async {
    let queue = ConcurrentQueue(width: 8)
    let order = FulfillmentOrder()
    let bDone = Expectation(description: "Task B")
    let a = Task(on: queue) {
      await bDone.fulfillment()  // the original slept 100 ms; a serial queue never lets B run
      order.fulfill("A")
    }
    let b = Task(on: queue) {
      order.fulfill("B")
      bDone.fulfill()
    }
    _ = await (a.value, b.value)
    #expect(order.order == ["B", "A"])
  }

  static func singleBarrierOperation() async {
    let queue = ConcurrentQueue(width: 8)
    let order = FulfillmentOrder()
    let a = Task(barrierOn: queue) {
      try await Task.sleep(for: .milliseconds(100))
      order.fulfill("A")
    }
    let b = Task(on: queue) { order.fulfill("B") }
    _ = await (a.result, b.value)
    #expect(order.order == ["A", "B"])
  }

  static func concurrentTasksOnlyWaitForBarrier() async {
    let queue = ConcurrentQueue(width: 8)
    let order = FulfillmentOrder()
    let a = Task(barrierOn: queue) {
      try await Task.sleep(for: .milliseconds(100))
      order.fulfill("A")
    }
    let cDone = Expectation(description: "Task C")
    let b = Task(on: queue) {
      await cDone.fulfillment()  // the original slept 100 ms; C runs beside B once A is done
      order.fulfill("B")
    }
    let c = Task(on: queue) {
      order.fulfill("C")
      cDone.fulfill()
    }
    _ = await (a.result, b.value, c.value)
    #expect(order.order == ["A", "C", "B"])
  }

  static func barrierThatAddsBarrierThenTask() async {
    let queue = ConcurrentQueue(width: 8)
    let order = FulfillmentOrder()
    let inner = Mutex<Task<Void, any Error>?>(nil)
    let a = Task(barrierOn: queue) {
      let b = Task(barrierOn: queue) {
        try await Task.sleep(for: .milliseconds(100))
        order.fulfill("B")
      }
      inner.withLock { $0 = b }
      order.fulfill("A")
    }
    let c = Task(on: queue) { order.fulfill("C") }
    await a.value
    await c.value
    _ = await inner.withLock { $0 }?.result
    #expect(order.order == ["A", "C", "B"])
  }

  static func barrierThatAddsBarrierAndTask() async {
    let queue = ConcurrentQueue(width: 8)
    let order = FulfillmentOrder()
    let inner = Mutex<[Task<Void, any Error>]>([])
    let a = Task(barrierOn: queue) {
      let b = Task(barrierOn: queue) {
        try await Task.sleep(for: .milliseconds(100))
        order.fulfill("B")
      }
      let c = Task(on: queue) { () throws in order.fulfill("C") }
      inner.withLock { $0 = [b, c] }
      order.fulfill("A")
    }
    await a.value
    for task in inner.withLock({ $0 }) { _ = await task.result }
    #expect(order.order == ["A", "B", "C"])
  }
}

@Suite struct ConcurrentQueuePortTests {
  @Test func testSerialOrder() async { await ConcurrentQueuePort.serialOrder() }
  @Test func testBarriersAreSerial() async { await ConcurrentQueuePort.barriersAreSerial() }
  @Test func testThrowingTask() async { await ConcurrentQueuePort.throwingTask() }
  @Test func testConcurrentQueue() async { await ConcurrentQueuePort.concurrentQueue() }
  @Test func testSingleBarrierOperation() async { await ConcurrentQueuePort.singleBarrierOperation() }
  @Test func testConcurrentTasksOnlyWaitForBarrier() async { await ConcurrentQueuePort.concurrentTasksOnlyWaitForBarrier() }
  @Test func testBarrierThatAddsBarrierThenTask() async { await ConcurrentQueuePort.barrierThatAddsBarrierThenTask() }
  @Test func testBarrierThatAddsBarrierAndTask() async { await ConcurrentQueuePort.barrierThatAddsBarrierAndTask() }
}

@Suite(.controlledScheduling())
struct ConcurrentQueuePortControlledTests {
  @Test func testSerialOrder() async { await ConcurrentQueuePort.serialOrder() }
  @Test func testBarriersAreSerial() async { await ConcurrentQueuePort.barriersAreSerial() }
  @Test func testThrowingTask() async { await ConcurrentQueuePort.throwingTask() }
  @Test func testConcurrentQueue() async { await ConcurrentQueuePort.concurrentQueue() }
  @Test func testSingleBarrierOperation() async { await ConcurrentQueuePort.singleBarrierOperation() }
  @Test func testConcurrentTasksOnlyWaitForBarrier() async { await ConcurrentQueuePort.concurrentTasksOnlyWaitForBarrier() }
  @Test func testBarrierThatAddsBarrierThenTask() async { await ConcurrentQueuePort.barrierThatAddsBarrierThenTask() }
  @Test func testBarrierThatAddsBarrierAndTask() async { await ConcurrentQueuePort.barrierThatAddsBarrierAndTask() }
}
