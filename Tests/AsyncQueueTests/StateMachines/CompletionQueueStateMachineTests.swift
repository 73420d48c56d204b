import QueueWorkloads
import Testing

@testable import AsyncQueue

@Suite("CompletionQueueStateMachine", .timeLimit(.minutes(5)), .hangGuard)
struct CompletionQueueStateMachineTests {
  typealias Machine = CompletionQueueStateMachine<String, String>

  @Test func itemsStartOneAtATimeInOrder() {
    var machine = Machine()
    let first = machine.enqueue("a")
    #expect(first.start?.item == "a")
    let second = machine.enqueue("b")
    #expect(second.start == nil)
    let third = machine.enqueue("c")
    #expect(third.start == nil)
    #expect(machine.pendingItemCount == 2)
    guard case .finished(let next) = machine.finish(first.start!.id) else {
      Issue.record("the running item finishes")
      return
    }
    #expect(next.start?.item == "b")
    guard case .finished(let last) = machine.finish(next.start!.id) else { return }
    #expect(last.start?.item == "c")
    guard case .finished(let none) = machine.finish(last.start!.id) else { return }
    #expect(none.start == nil && none.resume.isEmpty)
    #expect(machine.running == nil)
  }

  @Test func aSecondFinishChangesNothing() {
    var machine = Machine()
    let id = machine.enqueue("a").start!.id
    _ = machine.enqueue("b")
    guard case .finished(let next) = machine.finish(id) else { return }
    guard case .alreadyFinished = machine.finish(id) else {
      Issue.record("a second call is reported, not obeyed")
      return
    }
    // "b" still holds the turn.
    #expect(machine.running == next.start?.id)
    _ = machine.enqueue("c")
    #expect(machine.pendingItemCount == 1)
  }

  @Test func pauseHoldsBackNewItemsButNotTheRunningOne() {
    var machine = Machine()
    let id = machine.enqueue("a").start!.id
    machine.pause()
    #expect(machine.enqueue("b").start == nil)
    guard case .finished(let afterA) = machine.finish(id) else {
      Issue.record("the running item may finish while paused")
      return
    }
    #expect(afterA.start == nil)
    #expect(machine.running == nil)
    let resumed = machine.resume()
    #expect(resumed.start?.item == "b")
    #expect(!machine.isPaused)
  }

  @Test func waitersAreReleasedWhenEverythingBeforeThemFinished() {
    var machine = Machine()
    #expect(machine.enqueueWaiter("idle at once").resume == ["idle at once"])
    let id = machine.enqueue("a").start!.id
    #expect(machine.enqueueWaiter("after a").resume.isEmpty)
    _ = machine.enqueue("b")
    #expect(machine.enqueueWaiter("after b").resume.isEmpty)
    guard case .finished(let afterA) = machine.finish(id) else { return }
    // The waiter behind "a" is released, and "b" starts, in one step.
    #expect(afterA.resume == ["after a"])
    #expect(afterA.start?.item == "b")
    guard case .finished(let afterB) = machine.finish(afterA.start!.id) else { return }
    #expect(afterB.resume == ["after b"])
  }

  @Test func aPausedQueueReleasesWaitersOnlyUpToTheHeldItems() {
    var machine = Machine()
    machine.pause()
    #expect(machine.enqueueWaiter("before").resume == ["before"])
    _ = machine.enqueue("a")
    #expect(machine.enqueueWaiter("after").resume.isEmpty)
    let resumed = machine.resume()
    #expect(resumed.start?.item == "a")
    #expect(resumed.resume.isEmpty)
  }

  @Test func aLongLineIsCompactedAndKeepsItsOrder() {
    var machine = Machine()
    var started: [String] = []
    var running = machine.enqueue("0").start!
    started.append(running.item)
    for number in 1..<200 { _ = machine.enqueue("\(number)") }
    while case .finished(let actions) = machine.finish(running.id), let next = actions.start {
      started.append(next.item)
      running = next
    }
    #expect(started == (0..<200).map(String.init))
  }
}
