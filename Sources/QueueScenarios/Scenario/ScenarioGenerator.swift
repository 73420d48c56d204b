import QueueTestingEngine

/// Writes random valid scenarios from a seed: the same seed and sizes give the same scenario.
package struct ScenarioGenerator: Sendable {
  /// Size knobs.
  package struct Sizes: Sendable {
    /// At most this many queues (at least 1).
    package var queues: Int
    /// At most this many callers (at least 1).
    package var callers: Int
    /// Exactly this many items.
    package var items: Int
    /// At most this many plain steps per item.
    package var stepsPerItem: Int

    /// Creates size knobs.
    package init(queues: Int = 3, callers: Int = 3, items: Int = 8, stepsPerItem: Int = 3) {
      self.queues = max(queues, 1)
      self.callers = max(callers, 1)
      self.items = max(items, 1)
      self.stepsPerItem = max(stepsPerItem, 0)
    }
  }

  private var generator: SplitMix64
  private let sizes: Sizes

  /// Creates a generator.
  package init(seed: UInt64, sizes: Sizes = Sizes()) {
    generator = SplitMix64(seed: seed)
    self.sizes = sizes
  }

  private mutating func below(_ bound: Int) -> Int {
    bound <= 1 ? 0 : Int(generator.next() % UInt64(bound))
  }

  private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

  /// The next scenario, named `name`.
  package mutating func next(name: String) -> Scenario {
    let queueCount = 1 + below(sizes.queues)
    var queues: [Scenario.Queue] = []
    for index in 0..<queueCount {
      let roll = below(10)
      let kind: QueueItem.QueueKind =
        roll < 5 ? .fifo : (roll < 9 || queues.contains { $0.kind == .main } ? .actor : .main)
      queues.append(Scenario.Queue(name: "q\(index + 1)", kind: kind))
    }
    let callerCount = 1 + below(sizes.callers)
    var callers: [Scenario.Caller] = (0..<callerCount).map { index in
      Scenario.Caller(name: "c\(index + 1)", context: .sync, priority: nil, steps: [], line: 0)
    }
    for index in callers.indices where chance(60) {
      callers[index].context = .task
      if chance(40) { callers[index].priority = ScenarioPriority.allCases[below(ScenarioPriority.allCases.count)] }
    }
    var items: [Scenario.Item] = []
    // Each item's queue, by index into `queues`. An item waits only for items of later queues,
    // so waits form no cycle and a generated scenario never deadlocks: it can expect every
    // schedule to complete, and no run leaves tasks suspended forever (a deadlocked run's tasks
    // can never be freed, which a long stress session would pay for in memory).
    var queueOfItem: [Int] = []
    for index in 0..<sizes.items {
      let name = "i\(index + 1)"
      var steps: [Scenario.Step] = []
      for _ in 0..<below(sizes.stepsPerItem + 1) {
        let action: Scenario.Step.Action
        switch below(10) {
        case 0, 1, 2: action = .work
        case 3, 4: action = .yield
        case 5, 6: action = .suspend
        default: action = .sleep(nanoseconds: UInt64(1 + below(20)) * 1_000_000)
        }
        steps.append(Scenario.Step(action: action, line: 0))
      }
      items.append(Scenario.Item(name: name, steps: steps, line: 0))
      // Who enqueues it: a caller, or (a third of the time) an earlier item, so there is no cycle.
      let queueIndex = below(queues.count)
      queueOfItem.append(queueIndex)
      let queue = queues[queueIndex].name
      let priority = chance(30) ? ScenarioPriority.allCases[below(ScenarioPriority.allCases.count)] : nil
      if index > 0 && chance(33) {
        let parent = below(index)
        var style: Scenario.EnqueueStyle = [.enqueue, .task, .wait][below(3)]
        if style == .wait && queueIndex <= queueOfItem[parent] { style = .enqueue }
        let step = Scenario.Step(
          action: .enqueue(
            queue: queue, item: name, style: style, priority: style == .wait ? nil : priority, barrier: false),
          line: 0)
        items[parent].steps.insert(step, at: below(items[parent].steps.count + 1))
      } else {
        let caller = below(callers.count)
        let styles: [Scenario.EnqueueStyle] =
          callers[caller].context == .sync ? [.enqueue, .task] : [.enqueue, .task, .wait]
        let style = styles[below(styles.count)]
        callers[caller].steps.append(
          Scenario.Step(
            action: .enqueue(
              queue: queue, item: name, style: style, priority: style == .wait ? nil : priority, barrier: false),
            line: 0))
      }
    }
    for index in items.indices where chance(10) {
      items[index].steps.append(Scenario.Step(action: .throwError, line: 0))
    }
    for index in callers.indices where callers[index].context == .task && chance(30) {
      callers[index].steps.insert(Scenario.Step(action: .yield, line: 0), at: below(callers[index].steps.count + 1))
    }
    return Scenario(
      name: name, path: nil, queues: queues, callers: callers, items: items, checks: Set(Guarantee.allCases),
      outcome: .completes)
  }
}
