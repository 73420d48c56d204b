#if compiler(>=6.3)
  import AsyncQueue
  import Testing

  @testable import QueueTesting
  @testable import QueueTestingEngine
  import QueueWorkloads

  /// The main actor's executor is a serial queue: its jobs run in the order they were enqueued,
  /// whatever their priority. The harness chooses when the main actor runs next, never which of
  /// its jobs: correct code that relies on that order passes every schedule of every strategy.
  @Suite("Serial executors keep their order", .timeLimit(.minutes(5)), .hangGuard)
  struct SerialExecutorOrderTests {
    struct OutOfOrder: Error, CustomStringConvertible {
      let order: [String]
      var description: String { "main-actor tasks started out of creation order: \(order)" }
    }

    /// What the main actor's tasks did, in order.
    @MainActor final class StartLog {
      var entries: [String] = []
    }

    /// Creates tasks back to back on the main actor (alternating low and high priority), waits
    /// for them, and throws unless they started in creation order.
    @MainActor static func startTasksInOrder(count: Int) async throws {
      let log = StartLog()
      var tasks: [Task<Void, Never>] = []
      for index in 0..<count {
        let priority: TaskPriority = index.isMultiple(of: 2) ? .background : .high
        tasks.append(Task(priority: priority) { log.entries.append("\(index)") })
      }
      for task in tasks { await task.value }
      guard log.entries == (0..<count).map(String.init) else { throw OutOfOrder(order: log.entries) }
    }

    /// A view model whose fix for "the spinner stays on" relies on the main actor's order: the
    /// task that hides the spinner is created after the one that shows it, so it runs after it.
    @MainActor final class SpinnerModel {
      var spinnerShown = false

      func reload() -> [Task<Void, Never>] {
        [Task { self.spinnerShown = true }, Task { self.spinnerShown = false }]
      }
    }

    static let series: [ScheduleSeries] = [
      .random(200, seed: 1), .pct(200, depth: 1, seed: 2), .pct(200, depth: 3, seed: 3), .portfolio(200, seed: 4),
      .exhaustive(delayBound: nil, budget: 200),
    ]

    @Test("Main-actor tasks start in creation order, mixed priorities included, over 200 schedules", arguments: series)
    @available(ExecutorHooks 1.0, *)
    func mainActorTasksStartInCreationOrder(series: ScheduleSeries) {
      let report = ControlledScheduling(series).runSeries(
        { try await Self.startTasksInOrder(count: 4) }, failureCount: nil)
      #expect(report.failure == nil, "\(report.failure?.message() ?? "")")
      #expect(report.schedulesRun == 200 || report.exhausted == true)
    }

    @Test("A main-actor view model that relies on task order passes every schedule", arguments: series)
    @available(ExecutorHooks 1.0, *)
    func viewModelRelyingOnOrderPasses(series: ScheduleSeries) {
      struct SpinnerStayedOn: Error {}
      let report = ControlledScheduling(series).runSeries(
        {
          try await { @MainActor in
            let model = SpinnerModel()
            for task in model.reload() { await task.value }
            if model.spinnerShown { throw SpinnerStayedOn() }
          }()
        }, failureCount: nil)
      #expect(report.failure == nil, "\(report.failure?.message() ?? "")")
    }

    @Test("The main actor still interleaves with other work: a main-actor task and a child task run in either order")
    @available(ExecutorHooks 1.0, *)
    func mainActorInterleavesWithOtherWork() {
      let orders = LockedState(Set<[String]>())
      let report = ControlledScheduling(.exhaustive(delayBound: nil, budget: 200)).runSeries(
        {
          let log = LockedState([String]())
          let main = Task { @MainActor in log.withLock { $0.append("main") } }
          let other = Task.detached { log.withLock { $0.append("other") } }
          await main.value
          await other.value
          _ = orders.withLock { $0.insert(log.withLock { $0 }) }
        }, failureCount: nil)
      #expect(report.failure == nil)
      #expect(orders.withLock { $0 } == [["main", "other"], ["other", "main"]])
    }
  }
#endif
