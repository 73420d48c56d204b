import QueueTesting
import Testing

/// An account two task-group children update with a read and a write, each a hop onto the actor.
actor SharedAccount {
  private(set) var balance = 100
  func read() -> Int { balance }
  func write(_ newBalance: Int) { balance = newBalance }
}

/// The lost update across two task-group children: one child must be switched away from between
/// its read and its write while it could have gone on. `.ci/downstream.sh` checks that the failure
/// is reduced to that one preemption and that its picture has a lane per task.
@Test(.controlledScheduling(.random(100)))
func buggyTaskGroupLosesNoUpdate() async {
  let account = SharedAccount()
  await withTaskGroup(of: Void.self) { group in
    for _ in 0..<2 {
      group.addTask {
        let balance = await account.read()
        await account.write(balance + 10)
      }
    }
  }
  #expect(await account.balance == 120)
}
