#if compiler(>=6.3)
  extension ControlledExecutor {
    /// The result of ``explore(_:stepBudget:outsideWorkTimeout:_:stopWhen:)``.
    public struct Exploration: Sendable {
      /// The search after the last run: schedules explored and whether the space was exhausted.
      public var search: ExhaustiveSearch
      /// The run that made `stopWhen` return true, if one did.
      public var stoppedAt: RunResult?
    }

    /// Runs `body` under every schedule of `search` (see ``ExhaustiveSearch``), until the space
    /// is exhausted, the budget is spent, or `stopWhen` returns true for a run.
    ///
    /// `body` is called once per schedule and must create the state it tests afresh each time.
    /// Blocks the calling thread; from async code it occupies one thread of the pool meanwhile.
    @available(ExecutorHooks 1.0, *)
    public static func explore(
      _ search: ExhaustiveSearch = ExhaustiveSearch(),
      stepBudget: Int = defaultStepBudget,
      outsideWorkTimeout: Duration = defaultOutsideWorkTimeout,
      _ body: @escaping @Sendable () async -> Void,
      stopWhen: (RunResult) -> Bool = { _ in false }
    ) -> Exploration {
      explore(
        search, stepBudget: stepBudget, outsideWorkTimeout: outsideWorkTimeout, model: .faithful, body,
        stopWhen: stopWhen)
    }

    /// An exploration whose runs model the runtime as `model` says (see ``RuntimeModel``): for the
    /// package's mutation checks.
    @available(ExecutorHooks 1.0, *)
    package static func explore(
      _ search: ExhaustiveSearch = ExhaustiveSearch(),
      stepBudget: Int = defaultStepBudget,
      outsideWorkTimeout: Duration = defaultOutsideWorkTimeout,
      model: RuntimeModel,
      _ body: @escaping @Sendable () async -> Void,
      stopWhen: (RunResult) -> Bool = { _ in false }
    ) -> Exploration {
      var search = search
      while let strategy = search.nextStrategy() {
        let result = runBlocking(
          strategy: strategy, stepBudget: stepBudget, outsideWorkTimeout: outsideWorkTimeout, model: model, body)
        search.record(result)
        if stopWhen(result) { return Exploration(search: search, stoppedAt: result) }
      }
      return Exploration(search: search, stoppedAt: nil)
    }
  }
#endif
