import Synchronization

/// Correct code whose job runs until another task acts: a task loops, never suspending, until it
/// is cancelled, and the body cancels it once it has started. It passes on real threads every
/// time; run one job at a time, the loop keeps the only thread and the cancel never comes.
public func loopUntilCancelled() async {
  let started = Atomic<Bool>(false)
  let looping = Task {
    started.store(true, ordering: .relaxed)
    while !Task.isCancelled {}
  }
  while !started.load(ordering: .relaxed) { await Task.yield() }
  looping.cancel()
  await looping.value
}
