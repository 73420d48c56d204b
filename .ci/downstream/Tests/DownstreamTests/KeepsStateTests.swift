import QueueTesting
import Synchronization
import Testing

// Tests that keep state between runs of their body, as suites do with statics, singletons and
// caches. Under the trait a body runs once per schedule in one process, so the second schedule
// meets what the first left behind. `.ci/downstream.sh` checks that the trait says so and runs
// the series again with a fresh process per schedule: the test that only keeps state passes,
// and the one with a real bug still fails, on the bug.

/// Services started in this process: a static, as a registry or a singleton keeps it.
enum StartedServices {
  static let count = Atomic<Int>(0)
  static let ledgerCount = Atomic<Int>(0)
  static let auditCount = Atomic<Int>(0)
}

/// Starts once per process, as far as the static knows.
actor Service {
  /// Whether this is the first start in the process.
  func start() -> Bool {
    StartedServices.count.add(1, ordering: .relaxed).newValue == 1
  }
}

@Test(.controlledScheduling(.random(10, seed: 1)))
func aTestThatKeepsAStaticFlagPasses() async {
  let service = Service()
  let first = await service.start()
  #expect(first, "the service started before, in this process")
}

/// A ledger whose withdrawal reads, awaits an audit, then writes: two at once lose an update.
actor Ledger {
  private(set) var balance = 100
  let audit = Audit()

  func withdraw(_ amount: Int) async {
    let read = balance
    await audit.note(amount)
    balance = read - amount
  }
}

actor Audit {
  private(set) var entries: [Int] = []
  func note(_ amount: Int) { entries.append(amount) }
}

@Test(.controlledScheduling(.random(10, seed: 1)))
func aBugInATestThatKeepsAStaticFlagIsStillFound() async {
  let first = StartedServices.ledgerCount.add(1, ordering: .relaxed).newValue == 1
  #expect(first, "the ledger service started before, in this process")
  let ledger = Ledger()
  async let one: Void = ledger.withdraw(10)
  async let two: Void = ledger.withdraw(10)
  _ = await (one, two)
  #expect(await ledger.balance == 80)
}

/// Under the default series too: its fresh processes spend the default's budget as one process
/// would. Two notes to an audit have few interleavings, so they stop after 12 schedules in a row
/// find nothing new, not after the series' 100.
@Test(.controlledScheduling())
func freshProcessesSpendTheDefaultBudget() async {
  let first = StartedServices.auditCount.add(1, ordering: .relaxed).newValue == 1
  #expect(first, "the audit service started before, in this process")
  let audit = Audit()
  async let one: Void = audit.note(1)
  async let two: Void = audit.note(2)
  _ = await (one, two)
  #expect(await audit.entries.count == 2)
}
