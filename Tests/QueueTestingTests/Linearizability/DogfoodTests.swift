#if compiler(>=6.3)
  import AsyncQueue
  import Testing

  @testable import QueueTesting

  /// What the items of a queue did, in the order they did it: a lock, not an actor, so that
  /// recording adds no hop of its own.
  final class ItemLog: Sendable {
    private let entries = LockedState<[Int]>([])
    func append(_ id: Int) { entries.withLock { $0.append(id) } }
    var all: [Int] { entries.withLock { $0 } }
  }

  /// A queue of items that each append their id to a log: an item sent with `send` returns at
  /// once, one sent with `sendAndWait` returns the log as its item saw it. Items take effect in
  /// the order they were sent, so the item of a `sendAndWait` sees every item sent before it.
  struct OrderedLogModel: SequentialModel {
    enum Operation: Hashable, Sendable, CustomStringConvertible {
      case send(Int)
      case sendAndWait(Int)
      var description: String {
        switch self {
        case .send(let id): "send(\(id))"
        case .sendAndWait(let id): "sendAndWait(\(id))"
        }
      }
    }

    var log: [Int] = []

    mutating func apply(_ operation: Operation) -> ModelStep<[Int]> {
      switch operation {
      case .send(let id):
        log.append(id)
        return .returns([])
      case .sendAndWait(let id):
        log.append(id)
        return .returns(log)
      }
    }

    static func operations(_ random: inout ScenarioRandom) -> Operation {
      let id = Int.random(in: 1...9, using: &random)
      return Bool.random(using: &random) ? .send(id) : .sendAndWait(id)
    }
  }

  /// Items that each add their id to a log, and barriers that add theirs and return the log,
  /// sorted: a barrier sees every item sent before it and none sent after it.
  struct BarrierLogModel: SequentialModel {
    enum Operation: Hashable, Sendable, CustomStringConvertible {
      case send(Int)
      case barrier(Int)
      var description: String {
        switch self {
        case .send(let id): "send(\(id))"
        case .barrier(let id): "barrier(\(id))"
        }
      }
    }

    var log: [Int] = []

    mutating func apply(_ operation: Operation) -> ModelStep<[Int]> {
      switch operation {
      case .send(let id):
        log.append(id)
        return .returns([])
      case .barrier(let id):
        log.append(id)
        return .returns(log.sorted())
      }
    }

    static func operations(_ random: inout ScenarioRandom) -> Operation {
      let id = Int.random(in: 1...9, using: &random)
      return Bool.random(using: &random) ? .send(id) : .barrier(id)
    }
  }

  /// An actor an `ActorQueue` runs its items on, keeping their log.
  actor LogKeeper {
    private(set) var log: [Int] = []
    func append(_ id: Int) -> [Int] {
      log.append(id)
      return log
    }
  }

  /// Our own queues and tools, checked against sequential models as users check their types.
  @Suite("Our queues against sequential models", .timeLimit(.minutes(5)), .hangGuard)
  struct DogfoodTests {
    @available(ExecutorHooks 1.0, *)
    static func expectPasses<Model, Subject>(_ check: LinearizabilityCheck<Model, Subject>) async {
      let report = await check.run(environment: [:])
      let passed = report.passed
      #expect(passed, "\(report.failure?.message() ?? report.summary)")
      let (scenarios, undecided) = (report.scenariosRun, report.undecided.count)
      #expect(scenarios == check.scenarios && undecided == 0, "\(report.summary)")
    }

    /// A FIFO queue: items take effect in the order they were enqueued, and an item waited for
    /// sees every item enqueued before it.
    @available(ExecutorHooks 1.0, *)
    @Test func fifoQueue() async {
      await Self.expectPasses(
        LinearizabilityCheck(
          model: OrderedLogModel(), operations: OrderedLogModel.operations,
          make: { (queue: FIFOQueue(), log: ItemLog()) },
          perform: { subject, operation in
            switch operation {
            case .send(let id):
              subject.queue.enqueue { subject.log.append(id) }
              return []
            case .sendAndWait(let id):
              return await subject.queue.enqueueAndWait {
                subject.log.append(id)
                return subject.log.all
              }
            }
          }))
    }

    /// An actor queue: items start in the order they were enqueued, on its actor; items that do
    /// not suspend take effect in that order too.
    @available(ExecutorHooks 1.0, *)
    @Test func actorQueue() async {
      await Self.expectPasses(
        LinearizabilityCheck(
          model: OrderedLogModel(), operations: OrderedLogModel.operations,
          make: {
            let queue = ActorQueue<LogKeeper>()
            let keeper = LogKeeper()
            queue.adoptExecutionContext(of: keeper)
            return (queue: queue, keeper: keeper)
          },
          perform: { subject, operation in
            switch operation {
            case .send(let id):
              subject.queue.enqueue { keeper in _ = keeper.append(id) }
              return []
            case .sendAndWait(let id):
              return await Task(on: subject.queue) { keeper in keeper.append(id) }.value
            }
          }))
    }

    /// A completion queue: items start one at a time in enqueue order, each after the one before
    /// it called its finish; waiting until finished sees every item enqueued before the wait.
    @available(ExecutorHooks 1.0, *)
    @Test func completionQueue() async {
      await Self.expectPasses(
        LinearizabilityCheck(
          model: OrderedLogModel(), operations: OrderedLogModel.operations,
          make: { (queue: CompletionQueue(), log: ItemLog()) },
          perform: { subject, operation in
            switch operation {
            case .send(let id):
              subject.queue.enqueue { finish in
                subject.log.append(id)
                finish()
              }
              return []
            case .sendAndWait(let id):
              let seen = LockedState<[Int]>([])
              subject.queue.enqueue { finish in
                subject.log.append(id)
                seen.withLock { $0 = subject.log.all }
                finish()
              }
              await subject.queue.waitUntilFinished()
              return seen.withLock { $0 }
            }
          }))
    }

    /// A concurrent queue of width 1: items take effect in the order they were enqueued, as a
    /// FIFO queue's do, whatever form enqueued them.
    @available(ExecutorHooks 1.0, *)
    @Test func concurrentQueueOfWidthOne() async {
      await Self.expectPasses(
        LinearizabilityCheck(
          model: OrderedLogModel(), operations: OrderedLogModel.operations,
          make: { (queue: ConcurrentQueue(width: 1), log: ItemLog()) },
          perform: { subject, operation in
            switch operation {
            case .send(let id):
              subject.queue.enqueue { subject.log.append(id) }
              return []
            case .sendAndWait(let id):
              return await Task(on: subject.queue) {
                subject.log.append(id)
                return subject.log.all
              }.value
            }
          }))
    }

    /// A concurrent queue of width 3: a barrier sees every item enqueued before it, and none
    /// enqueued after it, whichever order the items before it took effect in.
    @available(ExecutorHooks 1.0, *)
    @Test func concurrentQueueBarriers() async {
      await Self.expectPasses(
        LinearizabilityCheck(
          model: BarrierLogModel(), operations: BarrierLogModel.operations,
          make: { (queue: ConcurrentQueue(width: 3), log: ItemLog()) },
          perform: { subject, operation in
            switch operation {
            case .send(let id):
              subject.queue.enqueue {
                await Task.yield()
                subject.log.append(id)
              }
              return []
            case .barrier(let id):
              return await subject.queue.enqueueBarrierAndWait {
                subject.log.append(id)
                return subject.log.all.sorted()
              }
            }
          }))
    }

    /// The semaphore: a wait takes a permit or waits for one, a cancelled wait throws
    /// `CancellationError` and takes none, a signal gives one back.
    @available(ExecutorHooks 1.0, *)
    @Test func asyncSemaphore() async {
      await Self.expectPasses(
        LinearizabilityCheck(
          model: PermitModel(),
          operations: { random in [.wait, .waitThenCancel, .signal, .signal].randomElement(using: &random)! },
          make: { AsyncSemaphore(value: 0) },
          perform: { semaphore, operation in
            switch operation {
            case .wait:
              try await semaphore.waitUnlessCancelled()
            case .waitThenCancel:
              let waiting = Task { try await semaphore.waitUnlessCancelled() }
              await Task.yield()
              waiting.cancel()
              try await waiting.value
            case .signal:
              semaphore.signal()
            }
            return true
          }))
    }

    /// A cancellable queue over a FIFO queue: cancelling never reorders or skips a task, and a
    /// task that saw the cancellation has no effect.
    @available(ExecutorHooks 1.0, *)
    @Test func cancellableQueue() async {
      await Self.expectPasses(
        LinearizabilityCheck(
          model: CancellableLogModel(), operations: CancellableLogModel.operations,
          make: { (queue: CancellableQueue(underlyingQueue: FIFOQueue()), log: ItemLog()) },
          perform: { subject, operation in
            switch operation {
            case .run(let id):
              return try await Task(on: subject.queue) {
                try Task.checkCancellation()
                subject.log.append(id)
                return subject.log.all
              }.value
            case .cancelTasks:
              subject.queue.cancelTasks()
              return []
            }
          }))
    }

    /// The ordered-log model fails a queue that runs each item in a task of its own: an item sent
    /// before another may take effect after it.
    @available(ExecutorHooks 1.0, *)
    @Test func theOrderedLogModelCatchesATaskPerItemQueue() async {
      let report = await LinearizabilityCheck(
        model: OrderedLogModel(), operations: OrderedLogModel.operations, make: { ItemLog() },
        perform: { log, operation in
          switch operation {
          case .send(let id):
            Task { log.append(id) }
            return []
          case .sendAndWait(let id):
            return await Task {
              log.append(id)
              return log.all
            }.value
          }
        }
      ).run(environment: [:])
      let failure = report.failure
      #expect(failure?.kind == .notLinearizable, "\(report.summary)")
      #expect((failure?.scenario.operationCount ?? 0) <= 3, "\(failure?.message() ?? "")")
    }

    /// Single flight with cached successes: however the requests for a key interleave, the
    /// operation runs once per key and every request gets its value.
    @available(ExecutorHooks 1.0, *)
    @Test func singleFlightRunsOneOperationPerKey() async {
      await Self.expectPasses(
        LinearizabilityCheck(
          model: CacheModel(),
          operations: { random in .value(key: Int.random(in: 1...2, using: &random)) },
          make: { (flight: SingleFlight<Int, Int>(caching: .successes), backend: Backend()) },
          perform: { subject, operation in
            switch operation {
            case .value(let key):
              return try await subject.flight.value(for: key) { await subject.backend.fetch(key) }
            }
          }))
    }

    /// After `forget` returns, the next request gets a value loaded after it: never the value of
    /// an operation that began before it, cached or still in flight.
    @available(ExecutorHooks 1.0, *)
    @Test func singleFlightIsFreshAfterForget() async {
      await Self.expectPasses(
        LinearizabilityCheck(
          model: VersionedValueModel(),
          operations: { random in Int.random(in: 0..<3, using: &random) == 0 ? .invalidate : .value },
          make: { (flight: SingleFlight<Int, Int>(caching: .successes), source: VersionedSource()) },
          perform: { subject, operation in
            switch operation {
            case .value:
              return try await subject.flight.value(for: 1) { await subject.source.version }
            case .invalidate:
              await subject.source.change()
              subject.flight.forget(1)
              return 0
            }
          }))
    }
  }

  /// Tasks run in order on a cancellable queue, each appending its id to a log and returning the
  /// log, unless it saw a cancellation: then it throws `CancellationError` and appends nothing.
  struct CancellableLogModel: SequentialModel {
    enum Operation: Hashable, Sendable, CustomStringConvertible {
      case run(Int)
      case cancelTasks
      var description: String {
        switch self {
        case .run(let id): "run(\(id))"
        case .cancelTasks: "cancelTasks()"
        }
      }
    }

    var log: [Int] = []

    mutating func apply(_ operation: Operation) -> ModelStep<[Int]> {
      switch operation {
      case .run(let id):
        log.append(id)
        return .cancellable(.returns(log))
      case .cancelTasks:
        return .returns([])
      }
    }

    static func operations(_ random: inout ScenarioRandom) -> Operation {
      Int.random(in: 0..<4, using: &random) == 0 ? .cancelTasks : .run(Int.random(in: 1...9, using: &random))
    }
  }
#endif
