import AsyncQueue
import QueueTestingEngine

/// One run of a scenario: its queues, the items' events, and the bookkeeping that lets the root
/// task wait until every item is done.
///
/// All of a controlled run happens on the driver thread; the lock only satisfies `Sendable`.
@available(ExecutorHooks 1.0, *)
final class ScenarioExecution: Sendable {
  private struct State: Sendable {
    var events: [OrderingEvent] = []
    var semaphoreEvents: [SemaphoreEvent] = []
    var acquisitions = 0
    var outstandingItems = 0
    var allDone: CheckedContinuation<Void, Never>?
    var tasks: [String: Task<Void, any Error>] = [:]
    var cancelBeforeCreation: Set<String> = []
  }

  let scenario: Scenario
  private let runtimes: [String: any ScenarioQueueRuntime]
  private let semaphores: [String: ScenarioSemaphoreRuntime]
  private let itemQueues: [String: Scenario.Queue]
  /// Items enqueued as barriers.
  private let barrierItems: Set<String>
  private let itemSteps: [String: [Scenario.Step]]
  private let state = LockedState(State())

  init(scenario: Scenario, implementation: QueueImplementation) {
    self.scenario = scenario
    var runtimes: [String: any ScenarioQueueRuntime] = [:]
    for queue in scenario.queues { runtimes[queue.name] = implementation.makeRuntime(for: queue) }
    self.runtimes = runtimes
    var semaphores: [String: ScenarioSemaphoreRuntime] = [:]
    for semaphore in scenario.semaphores { semaphores[semaphore.name] = implementation.makeSemaphore(semaphore) }
    self.semaphores = semaphores
    let queues = Dictionary(scenario.queues.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    var itemQueues: [String: Scenario.Queue] = [:]
    var barrierItems: Set<String> = []
    for step in scenario.callers.flatMap(\.steps) + scenario.items.flatMap(\.steps) {
      if case .enqueue(let queue, let item, _, _, let barrier) = step.action, let declared = queues[queue] {
        itemQueues[item] = declared
        if barrier { barrierItems.insert(item) }
      }
    }
    self.itemQueues = itemQueues
    self.barrierItems = barrierItems
    itemSteps = Dictionary(scenario.items.map { ($0.name, $0.steps) }, uniquingKeysWith: { first, _ in first })
  }

  var events: ScenarioEvents {
    state.withLock { ScenarioEvents(ordering: $0.events, semaphores: $0.semaphoreEvents) }
  }

  /// The run's body: sync callers in order, then the task callers, then waits for every item.
  func run() async {
    for caller in scenario.callers where caller.context == .sync {
      for step in caller.steps { performSync(step, by: caller.name) }
    }
    var callerTasks: [Task<Void, Never>] = []
    for caller in scenario.callers where caller.context == .task {
      callerTasks.append(
        // With the harness's preference, every actor hop a caller makes is a scheduling point
        // (an unstructured task would not inherit it from the run's root).
        Task(
          name: caller.name, executorPreference: ControlledExecutor.taskExecutor,
          priority: caller.priority?.taskPriority
        ) {
          for step in caller.steps { try? await self.perform(step, by: caller.name, item: nil) }
        })
    }
    for task in callerTasks { await task.value }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = state.withLock { state in
        if state.outstandingItems == 0 { return true }
        state.allDone = continuation
        return false
      }
      if resumeNow { continuation.resume() }
    }
    for semaphore in scenario.semaphores {
      guard let runtime = semaphores[semaphore.name] else { continue }
      recordSemaphore(.ended(freePermits: runtime.freePermits), semaphore.name, owner: "")
    }
  }

  private func recordSemaphore(_ kind: SemaphoreEvent.Kind, _ semaphore: String, owner: String) {
    state.withLock { $0.semaphoreEvents.append(SemaphoreEvent(kind, semaphore: semaphore, owner: owner)) }
  }

  /// An `acquire` step: records its beginning, the permit or the cancellation.
  private func acquire(_ semaphore: String, unlessCancelled: Bool, by owner: String) async {
    guard let runtime = semaphores[semaphore] else { return }
    let id = state.withLock { state in
      state.acquisitions += 1
      return state.acquisitions
    }
    recordSemaphore(.began(id: id), semaphore, owner: owner)
    TraceRecorder.mark("\(owner) acquires \(semaphore)")
    guard unlessCancelled else {
      await runtime.acquire()
      recordSemaphore(.acquired(id: id), semaphore, owner: owner)
      return
    }
    do {
      try await runtime.acquireUnlessCancelled()
      recordSemaphore(.acquired(id: id), semaphore, owner: owner)
    } catch {
      recordSemaphore(.cancelled(id: id), semaphore, owner: owner)
      TraceRecorder.mark("\(owner) cancelled waiting for \(semaphore)")
    }
  }

  /// A `release` step.
  private func release(_ semaphore: String, by owner: String) {
    guard let runtime = semaphores[semaphore] else { return }
    recordSemaphore(.released, semaphore, owner: owner)
    TraceRecorder.mark("\(owner) releases \(semaphore)")
    runtime.release()
  }

  private func record(_ kind: OrderingEvent.Kind, item: String) {
    guard let queue = itemQueues[item] else { return }
    let event = OrderingEvent(
      kind, queue: queue.name, queueKind: queue.kind, item: item, queueWidth: queue.width,
      isBarrier: barrierItems.contains(item))
    state.withLock { $0.events.append(event) }
    TraceRecorder.mark("\(kind.rawValue) \(item)")
  }

  /// A sync caller's step: never suspends (the parser allows only such steps there).
  private func performSync(_ step: Scenario.Step, by caller: String) {
    switch step.action {
    case .work:
      TraceRecorder.mark("work \(caller)")
    case .cancel(let item):
      cancel(item)
    case .enqueue(let queue, let item, let style, let priority, let barrier):
      enqueue(queue: queue, item: item, style: style, priority: priority, barrier: barrier)
    case .release(let semaphore):
      release(semaphore, by: caller)
    case .suspend, .yield, .sleep, .throwError, .acquire:
      break
    }
  }

  /// A step of a task caller (`item` nil) or of an item, in the isolation it runs in.
  private func perform(
    _ step: Scenario.Step, by owner: String, item: String?, isolation: isolated (any Actor)? = #isolation
  ) async throws {
    switch step.action {
    case .work:
      TraceRecorder.mark("work \(owner)")
    case .suspend:
      if let item { record(.suspended, item: item) }
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
        Task.detached(executorPreference: ControlledExecutor.taskExecutor) { continuation.resume() }
      }
    case .yield:
      if let item { record(.suspended, item: item) }
      await Task.yield()
    case .sleep(let nanoseconds):
      if let item { record(.suspended, item: item) }
      try? await Task.sleep(nanoseconds: nanoseconds)
    case .throwError:
      throw ScenarioItemError(item: owner)
    case .cancel(let target):
      cancel(target)
    case .enqueue(let queue, let child, .wait, _, let barrier):
      if let item { record(.suspended, item: item) }
      guard let runtime = admit(child, on: queue) else { return }
      do {
        try await runtime.enqueueAndWait(barrier: barrier, body(of: child))
      } catch {
        TraceRecorder.mark("\(owner) caught \(error)")
      }
    case .enqueue(let queue, let child, let style, let priority, let barrier):
      enqueue(queue: queue, item: child, style: style, priority: priority, barrier: barrier)
    case .acquire(let semaphore, let unlessCancelled):
      if let item { record(.suspended, item: item) }
      await acquire(semaphore, unlessCancelled: unlessCancelled, by: owner)
    case .release(let semaphore):
      release(semaphore, by: owner)
    }
  }

  /// The runtime of `queue`, after counting `item` as outstanding and recording its enqueue.
  private func admit(_ item: String, on queue: String) -> (any ScenarioQueueRuntime)? {
    guard let runtime = runtimes[queue] else { return nil }
    state.withLock { $0.outstandingItems += 1 }
    record(.enqueued, item: item)
    return runtime
  }

  private func enqueue(
    queue: String, item: String, style: Scenario.EnqueueStyle, priority: ScenarioPriority?, barrier: Bool
  ) {
    guard let runtime = admit(item, on: queue) else { return }
    switch style {
    case .enqueue:
      runtime.enqueue(priority: priority?.taskPriority, barrier: barrier, body(of: item))
    case .task:
      let task = runtime.task(priority: priority?.taskPriority, barrier: barrier, body(of: item))
      let cancelNow = state.withLock { state in
        state.tasks[item] = task
        return state.cancelBeforeCreation.contains(item)
      }
      if cancelNow { task.cancel() }
    case .wait:
      // Only from async code; see `perform`.
      break
    }
  }

  private func cancel(_ item: String) {
    let task = state.withLock { state in
      if state.tasks[item] == nil { state.cancelBeforeCreation.insert(item) }
      return state.tasks[item]
    }
    TraceRecorder.mark("cancel \(item)")
    if !scenario.semaphores.isEmpty { recordSemaphore(.taskCancelled, "", owner: item) }
    task?.cancel()
  }

  /// What the queue runs for `item`: its steps, framed by start and finish events.
  private func body(of item: String) -> ScenarioItemBody {
    let steps = itemSteps[item] ?? []
    return { isolation in
      self.record(.started, item: item)
      if Task.isCancelled { TraceRecorder.mark("\(item) sees cancellation") }
      defer { self.finished(item) }
      for step in steps {
        try await self.perform(step, by: item, item: item, isolation: isolation)
      }
    }
  }

  private func finished(_ item: String) {
    record(.finished, item: item)
    let done = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.outstandingItems -= 1
      guard state.outstandingItems == 0 else { return nil }
      defer { state.allDone = nil }
      return state.allDone
    }
    done?.resume()
  }
}

/// What a run of a scenario recorded: its items' events and its semaphores'.
package struct ScenarioEvents: Equatable, Sendable {
  /// The items' events, for the ordering oracles.
  package var ordering: [OrderingEvent]
  /// The semaphores' events, for ``SemaphoreOracle``.
  package var semaphores: [SemaphoreEvent]
}

/// The error a `throw` step throws.
struct ScenarioItemError: Error, CustomStringConvertible {
  let item: String
  var description: String { "error thrown by \(item)" }
}
