import Dispatch
import Synchronization

// Correct code whose job runs until another task acts. It passes on real threads every time
// (another thread of the pool runs the other task meanwhile); run one job at a time, the job keeps
// the only thread and the other task never comes.

/// A task loops, never suspending, until it is cancelled, and the body cancels it once it has
/// started.
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

/// A task waits on a semaphore that a task made after it signals. (Where the waiter runs first,
/// its job blocks its thread until the signaller has run.)
public func waitOnASemaphoreAnotherTaskSignals() async {
  let semaphore = DispatchSemaphore(value: 0)
  let waiter = Task { semaphore.wait() }
  let signaller = Task { _ = semaphore.signal() }
  await waiter.value
  await signaller.value
}
