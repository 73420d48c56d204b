import Dispatch
import QueueWorkloads
import Testing

@testable import AsyncQueue

@Suite("OrderedProperty", .timeLimit(.minutes(5)), .hangGuard)
struct OrderedPropertyTests {
  /// Writers on real threads (Dispatch's pool; run under the thread sanitizer in CI), with an
  /// observer that reads the property from inside its callback: no deadlock, every change
  /// delivered once, in write order.
  @Test func concurrentWritersOnRealThreadsDeliverInWriteOrder() {
    let property = OrderedProperty(0)
    let received = EventLog<OrderedPropertyChange<Int>>()
    let readsInsideCallback = LockedState<Int>.make(0)
    let token = property.observe { change in
      let now = property.value  // reading inside the callback must not deadlock
      if now >= change.newValue { readsInsideCallback.withLock { $0 += 1 } }
      received.append(change)
    }
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<2_000 { property.update { $0 += 1 } }
    }
    token.cancel()
    let changes = received.snapshot
    #expect(changes.count == 8_000)
    #expect(changes.map(\.version) == Array(1...8_000))
    #expect(zip(changes, changes.dropFirst()).allSatisfy { $0.newValue == $1.oldValue })
    #expect(changes.last?.newValue == property.value)
    // Values only grow, so a read in a callback never sees less than the change it is told of.
    #expect(readsInsideCallback.withLock { $0 } == 8_000)
  }

  /// A callback may write the property: its change is delivered after the current one.
  @Test func writingFromACallbackQueuesTheChangeBehind() {
    let property = OrderedProperty("a")
    let received = EventLog<String>()
    let token = property.observe { change in
      received.append(change.newValue)
      if change.newValue == "b" { property.value = "c" }
    }
    property.value = "b"
    #expect(received.snapshot == ["b", "c"])
    #expect(property.value == "c")
    token.cancel()
    property.value = "d"
    #expect(received.snapshot == ["b", "c"])
  }

  /// Releasing the token ends the observation.
  @Test func releasingTheTokenEndsTheObservation() {
    let property = OrderedProperty(0)
    let count = LockedState<Int>.make(0)
    var token: ObservationToken? = property.observe { _ in count.withLock { $0 += 1 } }
    property.value = 1
    _ = token
    token = nil
    property.value = 2
    #expect(count.withLock { $0 } == 1)
  }

  /// Leaving a `for await` loop over `changes()` ends its observation: later writes are not held
  /// in a buffer nobody reads. So does releasing a sequence that was never iterated.
  @Test func leavingTheLoopEndsTheObservation() async {
    let property = OrderedProperty(0)
    let changes = property.changes()
    #expect(property.observerCount == 1)
    property.value = 1
    for await change in changes {
      #expect(change.newValue == 1)
      break
    }
    #expect(property.observerCount == 0)
    for value in 2...1_000 { property.value = value }
    do {
      _ = property.changes()
    }
    #expect(property.observerCount == 0)
  }

  /// The documentation's example: it terminates, and sees the changes in write order.
  @Test func theDocumentationExampleTerminates() async {
    let status = OrderedProperty("idle")
    let seen = LockedState<[String]>.make([])
    let token = status.observe { change in
      seen.withLock { $0.append("\(change.oldValue) → \(change.newValue)") }
      _ = status.value
    }
    let changes = status.changes()
    status.value = "loading"
    status.value = "done"
    var looped: [String] = []
    for await change in changes {
      looped.append(change.newValue)
      if change.newValue == "done" { break }
    }
    token.cancel()
    #expect(looped == ["loading", "done"])
    #expect(seen.withLock { $0 } == ["idle → loading", "loading → done"])
    #expect(status.observerCount == 0)
  }

  /// A bounded buffer keeps the newest changes a slow loop has not taken, in write order.
  @Test func aBoundedBufferKeepsTheNewest() async {
    let property = OrderedProperty(0)
    let changes = property.changes(bufferingPolicy: .bufferingNewest(3))
    for value in 1...100 { property.value = value }
    var seen: [Int] = []
    for await change in changes {
      seen.append(change.newValue)
      if change.newValue == 100 { break }
    }
    #expect(seen == [98, 99, 100])
  }
}
