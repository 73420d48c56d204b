import QueueWorkloads
import Testing

@testable import AsyncQueue

@Suite("OrderedPropertyStateMachine", .timeLimit(.minutes(5)), .hangGuard)
struct OrderedPropertyStateMachineTests {
  typealias Machine = OrderedPropertyStateMachine<Int, String>

  @Test func withoutObserversNothingIsQueued() {
    var machine = Machine(0)
    let mustDeliver = machine.write(1)
    #expect(!mustDeliver)
    #expect(machine.value == 1 && machine.version == 1)
    #expect(machine.nextDelivery() == nil)
  }

  @Test func theFirstWriterDeliversAndLaterWritersQueueBehindIt() {
    var machine = Machine(0)
    _ = machine.addObserver("a")
    let first = machine.write(1)
    let second = machine.write(2)
    #expect(first && !second)
    let one = machine.nextDelivery()
    #expect(one?.0 == OrderedPropertyChange(oldValue: 0, newValue: 1, version: 1))
    #expect(one?.1 == ["a"])
    // A write during delivery joins the line; the deliverer picks it up.
    let third = machine.write(3)
    #expect(!third)
    #expect(machine.nextDelivery()?.0.newValue == 2)
    #expect(machine.nextDelivery()?.0 == OrderedPropertyChange(oldValue: 2, newValue: 3, version: 3))
    #expect(machine.nextDelivery() == nil)
    // Delivery ended: the next writer delivers again.
    let fourth = machine.write(4)
    #expect(fourth)
  }

  @Test func observersGetOnlyChangesWrittenAfterTheyWereAddedAndNoneAfterRemoval() {
    var machine = Machine(0)
    let a = machine.addObserver("a")
    _ = machine.write(1)
    _ = machine.addObserver("b")
    _ = machine.write(2)
    #expect(machine.nextDelivery()?.1 == ["a"])
    machine.removeObserver(a)
    #expect(machine.nextDelivery()?.1 == ["b"])
    #expect(machine.nextDelivery() == nil)
  }
}
