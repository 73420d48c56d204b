import QueueTesting
import Testing

/// Two pollers wait for a flag that nothing ever sets, each yielding between looks: every schedule
/// runs to the step budget, and its schedule (a choice at every step) is far too long to spell out
/// on a command line. The failure saves it in a file and prints a replay line that reads the file,
/// which must run as printed.
@Test(.controlledScheduling(.random(2), stepBudget: 20_000))
func pollersThatNeverStop() async {
  await withTaskGroup(of: Void.self) { group in
    for _ in 0..<2 {
      group.addTask {
        while true { await Task.yield() }
      }
    }
  }
}
