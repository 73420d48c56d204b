import AsyncQueue

/// The bug the queues exist to prevent: 100 `Task {}` from nonisolated code into an actor, each
/// checking the count it observes. Returns how many observed an out-of-order count (0 on a
/// schedule that happened to start the tasks in creation order).
public func naiveTaskPerCallViolations() async -> Int {
  let counter = CountingActor()
  var tasks: [Task<Void, Never>] = []
  for iteration in 1...100 {
    tasks.append(Task { await counter.incrementAndCheck(iteration) })
  }
  for task in tasks { await task.value }
  return await counter.outOfOrder
}

/// The same workload through the queues: 30 items on a `FIFOQueue` and 30 on an `ActorQueue`,
/// each checking the count it observes. Returns how many observed an out-of-order count (0 if the
/// queues keep their guarantees under the schedule in force).
public func queueOrderViolations() async -> Int {
  let counter = CountingActor()
  let queue = FIFOQueue()
  for iteration in 1...30 {
    queue.enqueue { await counter.incrementAndCheck(iteration) }
  }
  await queue.enqueueAndWait {}
  let actorCounter = OrderedCounter()
  for iteration in 1...30 { actorCounter.increment(expecting: iteration) }
  await actorCounter.flush()
  return await counter.outOfOrder + actorCounter.outOfOrder
}
