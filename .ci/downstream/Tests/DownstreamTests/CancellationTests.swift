import QueueTesting
import Testing

// A cancellation bug as a user writes it, and its fix: a worker that holds a lease while it
// works. `buggy...` must fail with the cancellation named and a replay line; `fixed...` passes.

actor LeasePool {
  private(set) var leased = 0
  func take() { leased += 1 }
  func giveBack() { leased -= 1 }
}

/// Takes a lease, works, gives it back; with `skipsCleanup`, a cancellation while it works
/// makes it leave without giving the lease back.
func work(in pool: LeasePool, skipsCleanup: Bool) async {
  guard !Task.isCancelled else { return }
  await pool.take()
  do {
    try await Task.sleep(for: .seconds(1))
  } catch {
    if skipsCleanup { return }
  }
  await pool.giveBack()
}

/// Starts a worker and waits for it; returns the leases left taken.
func leasesLeftByAWorker(skipsCleanup: Bool) async -> Int {
  let pool = LeasePool()
  let worker = Task { await work(in: pool, skipsCleanup: skipsCleanup) }
  await worker.value
  return await pool.leased
}

@Test(.controlledScheduling(.portfolio(100), cancelling: .childrenOfRoot))
func buggyWorkerGivesBackItsLease() async {
  #expect(await leasesLeftByAWorker(skipsCleanup: true) == 0)
}

@Test(.controlledScheduling(.portfolio(100), cancelling: .childrenOfRoot))
func fixedWorkerGivesBackItsLease() async {
  #expect(await leasesLeftByAWorker(skipsCleanup: false) == 0)
}
