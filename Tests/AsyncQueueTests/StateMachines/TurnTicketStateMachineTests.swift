import Testing

@testable import AsyncQueue

@Suite("TurnTicketStateMachine")
struct TurnTicketStateMachineTests {
  typealias Machine = TurnTicketStateMachine<String>

  @Test func holderFirstThenDrainer() {
    var machine = Machine()
    let outcome1 = machine.claimIfGranted()
    #expect(!outcome1)
    guard case .none = machine.parkHolder("holder") else {
      Issue.record("holder should park")
      return
    }
    guard case .resumeHolder(let holder) = machine.grant(drainer: "drainer") else {
      Issue.record("grant should resume the parked holder")
      return
    }
    #expect(holder == "holder")
    let outcome2 = machine.release()
    #expect(outcome2 == "drainer")
  }

  @Test func drainerFirstHolderClaimsWithoutSuspending() {
    var machine = Machine()
    guard case .none = machine.grant(drainer: "drainer") else {
      Issue.record("grant with no holder should park the drainer")
      return
    }
    let outcome3 = machine.claimIfGranted()
    #expect(outcome3)
    let outcome4 = machine.release()
    #expect(outcome4 == "drainer")
  }

  @Test func grantArrivesBetweenCheckAndPark() {
    var machine = Machine()
    let outcome5 = machine.claimIfGranted()
    #expect(!outcome5)
    _ = machine.grant(drainer: "drainer")
    guard case .resumeHolder = machine.parkHolder("holder") else {
      Issue.record("parking after a grant must resume the holder at once")
      return
    }
    let outcome6 = machine.release()
    #expect(outcome6 == "drainer")
  }
}
