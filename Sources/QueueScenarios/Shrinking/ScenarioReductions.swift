import QueueTestingEngine

/// The smaller scenarios one reduction away from a scenario: what ``ScenarioShrinker`` tries.
///
/// Pure: it only rewrites scenarios. Every candidate is valid (it parses back from its text) and
/// strictly simpler: fewer callers, items, queues or steps, or a step, style or priority made
/// plainer. Candidates come largest cut first, so a shrink takes big steps while it can.
package enum ScenarioReductions {
  /// The valid one-step reductions of `scenario`, largest first.
  package static func candidates(of scenario: Scenario) -> [Scenario] {
    var candidates: [Scenario] = []
    for caller in scenario.callers {
      var smaller = scenario.removingItems(enqueuedBy: caller.steps)
      smaller.callers.removeAll { $0.name == caller.name }
      candidates.append(smaller)
    }
    for item in scenario.items {
      candidates.append(scenario.removingItems([item.name]))
    }
    for queue in scenario.queues where !scenario.isUsed(queue: queue.name) {
      var smaller = scenario
      smaller.queues.removeAll { $0.name == queue.name }
      candidates.append(smaller)
    }
    candidates += stepRemovals(of: scenario)
    candidates += hoists(of: scenario)
    candidates += simplifications(of: scenario)
    return candidates.filter(\.isValid)
  }

  /// Each step that enqueues nothing, removed.
  private static func stepRemovals(of scenario: Scenario) -> [Scenario] {
    var candidates: [Scenario] = []
    for owner in scenario.stepOwners {
      for (position, step) in scenario[stepsOf: owner].enumerated() where !step.action.enqueuesAnItem {
        var smaller = scenario
        smaller[stepsOf: owner].remove(at: position)
        candidates.append(smaller)
      }
    }
    return candidates
  }

  /// Each nested enqueue moved up a level: a step of item `P` that enqueues `C` moves to whoever
  /// enqueues `P`, right after that enqueue. Same steps, less nesting; afterwards `P` may go
  /// without taking `C` with it.
  private static func hoists(of scenario: Scenario) -> [Scenario] {
    var enqueuer: [String: (owner: Scenario.StepOwner, position: Int)] = [:]
    for owner in scenario.stepOwners {
      for (position, step) in scenario[stepsOf: owner].enumerated() {
        if let item = step.action.enqueuedItem { enqueuer[item] = (owner, position) }
      }
    }
    var candidates: [Scenario] = []
    for (index, item) in scenario.items.enumerated() {
      guard let (owner, ownerPosition) = enqueuer[item.name] else { continue }
      for (position, step) in item.steps.enumerated() where step.action.enqueuesAnItem {
        var hoisted = scenario
        hoisted.items[index].steps.remove(at: position)
        hoisted[stepsOf: owner].insert(step, at: ownerPosition + 1)
        candidates.append(hoisted)
      }
    }
    return candidates
  }

  /// Each step, style or priority made plainer: a sleep or a suspension becomes a yield, a
  /// `wait` or `task` becomes an `enqueue` (dropping cancels of it), priorities go, a task
  /// caller whose steps allow it becomes a sync caller.
  private static func simplifications(of scenario: Scenario) -> [Scenario] {
    var candidates: [Scenario] = []
    func plainer(_ action: Scenario.Step.Action) -> [Scenario.Step.Action] {
      switch action {
      case .sleep, .suspend: [.yield]
      case .enqueue(let queue, let item, let style, let priority, let barrier):
        (style == .enqueue
          ? [] : [.enqueue(queue: queue, item: item, style: .enqueue, priority: priority, barrier: barrier)])
          + (priority == nil ? [] : [.enqueue(queue: queue, item: item, style: style, priority: nil, barrier: barrier)])
          + (barrier ? [.enqueue(queue: queue, item: item, style: style, priority: priority, barrier: false)] : [])
      case .acquire(let semaphore, true): [.acquire(semaphore: semaphore, unlessCancelled: false)]
      case .work, .yield, .throwError, .cancel, .acquire, .release: []
      }
    }
    func plainerSteps(of owner: Scenario.StepOwner) {
      for (position, step) in scenario[stepsOf: owner].enumerated() {
        for action in plainer(step.action) {
          var simpler = scenario
          simpler[stepsOf: owner][position].action = action
          // Plainer `task` enqueues go without the cancels of their item.
          if case .enqueue(_, let item, .task, _, _) = step.action {
            simpler.removeSteps { $0.action == .cancel(item: item) }
          }
          candidates.append(simpler)
        }
      }
    }
    for (index, caller) in scenario.callers.enumerated() {
      plainerSteps(of: .caller(index))
      if caller.priority != nil {
        var simpler = scenario
        simpler.callers[index].priority = nil
        candidates.append(simpler)
      }
      if caller.context == .task {
        var simpler = scenario
        simpler.callers[index].context = .sync
        simpler.callers[index].priority = nil
        candidates.append(simpler)
      }
    }
    for index in scenario.items.indices { plainerSteps(of: .item(index)) }
    return candidates
  }
}

extension Scenario {
  /// Whose steps: a caller's or an item's, by index.
  enum StepOwner {
    case caller(Int)
    case item(Int)
  }

  /// Every caller, then every item.
  var stepOwners: [StepOwner] {
    callers.indices.map(StepOwner.caller) + items.indices.map(StepOwner.item)
  }

  /// The steps of a caller or an item.
  subscript(stepsOf owner: StepOwner) -> [Step] {
    get {
      switch owner {
      case .caller(let index): callers[index].steps
      case .item(let index): items[index].steps
      }
    }
    set {
      switch owner {
      case .caller(let index): callers[index].steps = newValue
      case .item(let index): items[index].steps = newValue
      }
    }
  }

  /// Removes the steps, of callers and items alike, that `shouldRemove` picks.
  mutating func removeSteps(where shouldRemove: (Step) -> Bool) {
    for owner in stepOwners { self[stepsOf: owner].removeAll(where: shouldRemove) }
  }

  /// The scenario with its queues, callers and items renamed `q1`, `c1`, `i1`, ... in the order
  /// they are declared (steps follow). Names do not change how a run is scheduled.
  package func renamedCanonically() -> Scenario {
    var queueNames: [String: String] = [:]
    var itemNames: [String: String] = [:]
    for (index, queue) in queues.enumerated() { queueNames[queue.name] = "q\(index + 1)" }
    var semaphoreNames: [String: String] = [:]
    for (index, semaphore) in semaphores.enumerated() { semaphoreNames[semaphore.name] = "s\(index + 1)" }
    for (index, item) in items.enumerated() { itemNames[item.name] = "i\(index + 1)" }
    func rename(_ step: Step) -> Step {
      var step = step
      switch step.action {
      case .enqueue(let queue, let item, let style, let priority, let barrier):
        step.action = .enqueue(
          queue: queueNames[queue] ?? queue, item: itemNames[item] ?? item, style: style, priority: priority,
          barrier: barrier)
      case .acquire(let semaphore, let unlessCancelled):
        step.action = .acquire(semaphore: semaphoreNames[semaphore] ?? semaphore, unlessCancelled: unlessCancelled)
      case .release(let semaphore):
        step.action = .release(semaphore: semaphoreNames[semaphore] ?? semaphore)
      case .cancel(let item):
        step.action = .cancel(item: itemNames[item] ?? item)
      default:
        break
      }
      return step
    }
    var result = self
    for index in result.queues.indices { result.queues[index].name = "q\(index + 1)" }
    for index in result.semaphores.indices { result.semaphores[index].name = "s\(index + 1)" }
    for index in result.callers.indices { result.callers[index].name = "c\(index + 1)" }
    for index in result.items.indices { result.items[index].name = "i\(index + 1)" }
    for owner in result.stepOwners { result[stepsOf: owner] = result[stepsOf: owner].map(rename) }
    return result
  }

  /// Whether the scenario reads back from its own text (the parser's checks all hold).
  var isValid: Bool {
    (try? ScenarioParser.parse(text, path: name)) != nil
  }

  /// Whether any step enqueues an item on `queue`.
  func isUsed(queue: String) -> Bool {
    (callers.flatMap(\.steps) + items.flatMap(\.steps)).contains { step in
      if case .enqueue(queue, _, _, _, _) = step.action { return true }
      return false
    }
  }

  /// The scenario without the items that `steps` enqueue, and what those enqueue in turn.
  func removingItems(enqueuedBy steps: [Step]) -> Scenario {
    removingItems(Set(steps.compactMap(\.action.enqueuedItem)))
  }

  /// The scenario without `names`, the items they enqueue (transitively), and every step that
  /// enqueues or cancels a removed item.
  func removingItems(_ names: Set<String>) -> Scenario {
    var removed = names
    var pending = Array(names)
    while let name = pending.popLast() {
      for child in item(named: name)?.steps.compactMap(\.action.enqueuedItem) ?? [] where removed.insert(child).inserted
      {
        pending.append(child)
      }
    }
    func keeps(_ step: Step) -> Bool {
      switch step.action {
      case .enqueue(_, let item, _, _, _), .cancel(let item): !removed.contains(item)
      default: true
      }
    }
    var result = self
    result.items.removeAll { removed.contains($0.name) }
    result.removeSteps { !keeps($0) }
    return result
  }
}

extension Scenario.Step.Action {
  /// The item this step enqueues, if it is an enqueue step.
  var enqueuedItem: String? {
    if case .enqueue(_, let item, _, _, _) = self { return item }
    return nil
  }

  var enqueuesAnItem: Bool { enqueuedItem != nil }
}
