// The example of the article "Reading a failure": it fails by design, and `.ci/docs.sh` checks
// that it is reduced to one preemption.
import QueueTesting
import Testing

actor SharedAccount {
  private(set) var balance = 100
  func read() -> Int { balance }
  func write(_ newBalance: Int) { balance = newBalance }
}

@Test(.controlledScheduling(.random(100)))
func taskGroupLosesNoUpdate() async {
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
