#if compiler(>=6.3)
  import AsyncQueue

  /// Checks a concurrent type of your own against a plain sequential version of it: small
  /// scenarios of its operations run by a few tasks at once, each under the harness's controlled
  /// schedules, and each run's results checked for linearizability (is there one order of the
  /// operations, consistent with what returned before what was called, in which the sequential
  /// version gives every result the run gave?).
  ///
  /// You give four things: the sequential model (a ``SequentialModel``), a way to draw an
  /// operation at random, a way to make the object under test (fresh for every run), and a way
  /// to perform an operation on it.
  ///
  /// ```swift
  /// @Test func counterIsLinearizable() async {
  ///   await expectLinearizable(
  ///     LinearizabilityCheck(
  ///       model: CounterModel(),
  ///       operations: { random in Bool.random(using: &random) ? .increment : .get },
  ///       make: { HitCounter() },
  ///       perform: { counter, operation in
  ///         operation == .increment ? await counter.increment() : await counter.get()
  ///       }))
  /// }
  /// ```
  ///
  /// What you may rely on:
  /// - **Scenarios.** ``scenarios`` scenarios, each an initial part, ``tasks`` tasks of
  ///   ``operationsPerTask`` operations run at once, and a final part, drawn from ``seed``: the
  ///   same seed gives the same scenarios, and the same schedules for each.
  /// - **Schedules.** Each scenario runs under ``scheduling`` (the default series and its
  ///   budget), every `await` and actor hop of the type a point where another task may go first.
  ///   Operations are called from unstructured tasks; recording them adds no scheduling point.
  /// - **Waiting operations.** An operation that never returns (a `dequeue` on an empty queue that
  ///   suspends) is pending: the run goes on once nothing else can run, and the history passes
  ///   only if the model says that operation would wait there. One that returns after another
  ///   released it is placed after that one.
  /// - **Results.** Compared with `==`; a thrown error by its type and value (``ThrownError``).
  /// - **A failure** is made as small as it goes (operations dropped, then tasks, then
  ///   arguments shrunk by `shrink`, then the schedule's preemptions), and reported with a table
  ///   of the scenario, the first step where the model disagrees, the interleaving, and one line
  ///   that reruns that scenario and schedule alone.
  /// - **Caps.** The checker stops at ``maximumStates`` states or after ``checkTimeLimit`` and
  ///   says the run is undecided (``LinearizabilityReport/undecided``), never hangs.
  ///
  /// Call it from a plain test, not under `.controlledScheduling()`: the check runs the harness
  /// itself, once per scenario.
  public struct LinearizabilityCheck<Model: SequentialModel, Subject: Sendable>: Sendable {
    /// The sequential model, in its initial state.
    public var model: Model
    /// Draws one operation (with its arguments) from the scenario's random source.
    public var operations: @Sendable (inout ScenarioRandom) -> Model.Operation
    /// Smaller versions of an operation's arguments, smallest first (none: it cannot shrink), for
    /// making a failing scenario smaller.
    public var shrink: @Sendable (Model.Operation) -> [Model.Operation]
    /// Makes the object under test, fresh for every run.
    public var make: @Sendable () async -> Subject
    /// Performs one operation on the object under test and returns its result.
    public var perform: @Sendable (Subject, Model.Operation) async throws -> Model.Result

    /// How many tasks run the parallel part at once (default 2).
    public var tasks = 2
    /// How many operations each task runs, in order (default 3).
    public var operationsPerTask = 3
    /// How many operations run before the parallel part, one after another (default 0).
    public var initialOperations = 0
    /// How many operations run after it, one after another (default 0).
    public var finalOperations = 0
    /// How many scenarios to draw and run (default 20); `QUEUE_TESTING_BUDGET=10x` runs ten times
    /// as many.
    public var scenarios = 20
    /// The seed the scenarios, and their schedules, follow from; `QUEUE_TESTING_SEED` replaces it.
    public var seed: UInt64 = 0
    /// What the history must keep of the order its operations ran in (default: linearizability).
    public var condition = ConsistencyCondition.linearizability
    /// How each scenario runs: the series and its budget, the reducer, the job limits (default:
    /// the default series, as `.controlledScheduling()` runs it).
    public var scheduling = ControlledScheduling()
    /// The most states the checker may keep for one history before it calls it undecided.
    public var maximumStates = 200_000
    /// How long the checker may take over one history before it calls it undecided.
    public var checkTimeLimit = Duration.seconds(5)
    /// How many times each scenario also runs on real threads (the cooperative pool, no harness),
    /// once its controlled schedules passed (default 0): for code whose order the harness does not
    /// control, such as work on Dispatch queues. A failure found there has no schedule to replay.
    public var realThreadRuns = 0
    /// How long a part of a scenario on real threads may go without finishing before its
    /// unfinished operations count as waiting for ever (pending).
    public var realThreadPartLimit = Duration.seconds(1)
    /// The most scenarios a failure's minimization may run.
    public var maximumMinimizationAttempts = 150
    /// The key that splits operations into independent parts, when the model's state does.
    var partitionKey: (@Sendable (Model.Operation) -> AnyHashable)?
    /// The scenario ``run(_:environment:)`` runs, written by hand.
    var handWritten: OperationScenario<Model.Operation>?

    /// A check of the type that `make` makes against `model`.
    /// - Parameters:
    ///   - model: The sequential model, in its initial state.
    ///   - operations: Draws one operation, arguments included, from the random source.
    ///   - shrink: Smaller versions of an operation's arguments, smallest first.
    ///   - make: Makes the object under test; called once per run.
    ///   - perform: Performs an operation on it and returns what it returned.
    public init(
      model: Model,
      operations: @escaping @Sendable (inout ScenarioRandom) -> Model.Operation,
      shrink: @escaping @Sendable (Model.Operation) -> [Model.Operation] = { _ in [] },
      make: @escaping @Sendable () async -> Subject,
      perform: @escaping @Sendable (Subject, Model.Operation) async throws -> Model.Result
    ) {
      self.model = model
      self.operations = operations
      self.shrink = shrink
      self.make = make
      self.perform = perform
    }

    /// The same check, the operations split by `key` into parts checked one at a time
    /// (P-compositionality): for a model whose state falls apart by key, such as a map whose
    /// keys never meet, where a history is linearizable exactly when each key's part is. A key
    /// that splits operations that do meet gives wrong answers.
    public func partitioned<Key: Hashable & Sendable>(
      by key: @escaping @Sendable (Model.Operation) -> Key
    ) -> LinearizabilityCheck {
      var check = self
      check.partitionKey = { AnyHashable(key($0)) }
      return check
    }

    /// The scenario of this number (from 1) that ``seed`` gives.
    public func scenario(number: Int) -> OperationScenario<Model.Operation> {
      scenario(number: number, seed: seed)
    }

    func scenario(number: Int, seed: UInt64) -> OperationScenario<Model.Operation> {
      OperationScenario.random(
        seed: Self.scenarioSeed(seed, number: number), tasks: tasks, operationsPerTask: operationsPerTask,
        initialCount: initialOperations, finalCount: finalOperations, generate: operations)
    }

    /// The seed of a scenario and of its schedules: the check's seed and the number, mixed.
    static func scenarioSeed(_ seed: UInt64, number: Int) -> UInt64 {
      var random = ScenarioRandom(seed: seed ^ (UInt64(number) &* 0x9E37_79B9_7F4A_7C15))
      return random.next()
    }

    /// The verdict on one run's history.
    func verdict(_ history: OperationHistory<Model.Operation, Model.Result>) -> LinearizabilityVerdict {
      let checker = LinearizabilityChecker<Model>(maximumStates: maximumStates, timeLimit: checkTimeLimit)
      if let partitionKey, condition == .linearizability {
        return checker.check(history, from: model, partitionedBy: partitionKey)
      }
      return checker.check(history, from: model, condition: condition)
    }
  }
#endif
