#if compiler(>=6.3)
  /// The linearizability checker timed on generated histories, for `Benchmarks/linearizability.sh`
  /// (`@_spi(Benchmarks) import QueueTesting`): not part of the public API, which checks histories
  /// it records itself.
  @_spi(Benchmarks) public enum CheckerBenchmark {
    /// A map of registers: `put` sets a key's value, `get` reads it. Its histories' results
    /// depend on the order of the calls on each key, and its state splits by key.
    struct RegisterMapModel: SequentialModel {
      enum Operation: Hashable, Sendable {
        case put(key: Int, value: Int)
        case get(key: Int)
      }

      var values: [Int: Int] = [:]

      mutating func apply(_ operation: Operation) -> ModelStep<Int?> {
        switch operation {
        case .put(let key, let value):
          values[key] = value
          return .returns(nil)
        case .get(let key):
          return .returns(values[key])
        }
      }
    }

    /// One decision: how long it took, and whether its verdict was the one the history was made
    /// to have (linearizable, or not for a history with one wrong result).
    public struct Decision: Sendable {
      /// The time the checker took.
      public var time: Duration
      /// Whether the verdict was the expected one.
      public var correct: Bool
    }

    /// Decides `count` generated histories of `operations` operations over `tasks` tasks and
    /// `keys` keys, every other one with one wrong result, split by key when `partitioned`.
    public static func decide(
      histories count: Int, operations: Int, tasks: Int, keys: Int, partitioned: Bool, seed: UInt64
    ) -> [Decision] {
      let checker = LinearizabilityChecker<RegisterMapModel>(maximumStates: 1_000_000)
      let clock = ContinuousClock()
      return (0..<count).map { index in
        let corrupting = index % 2 == 1
        let history = Self.history(
          count: operations, tasks: tasks, keys: keys, seed: seed &+ UInt64(index), corrupting: corrupting)
        var verdict = LinearizabilityVerdict.unknown("")
        let time = clock.measure {
          verdict =
            partitioned
            ? checker.check(history, from: RegisterMapModel(), partitionedBy: Self.key)
            : checker.check(history, from: RegisterMapModel())
        }
        let correct =
          switch verdict {
          case .linearizable: !corrupting
          case .notLinearizable: corrupting
          case .unknown: false
          }
        return Decision(time: time, correct: correct)
      }
    }

    static func key(_ operation: RegisterMapModel.Operation) -> Int {
      switch operation {
      case .put(let key, _), .get(let key): key
      }
    }

    /// A linearizable history: each operation takes effect at a random point inside its
    /// interval, and its result is what the model gives in the order of those points. With
    /// `corrupting`, the last `get`'s result is wrong.
    static func history(
      count: Int, tasks: Int, keys: Int, seed: UInt64, corrupting: Bool
    ) -> OperationHistory<RegisterMapModel.Operation, Int?> {
      var random = ScenarioRandom(seed: seed)
      var time = Array(repeating: 0, count: tasks)
      var drafts: [(task: Int, operation: RegisterMapModel.Operation, invocation: Int, response: Int, point: Int)] =
        []
      for _ in 0..<count {
        let task = Int(random.next() % UInt64(tasks))
        let invocation = time[task] + Int(random.next() % 3)
        let response = invocation + 1 + Int(random.next() % 6)
        let point = invocation + Int(random.next() % UInt64(response - invocation + 1))
        time[task] = response + 1
        let key = Int(random.next() % UInt64(keys))
        let operation: RegisterMapModel.Operation =
          random.next() % 2 == 0 ? .put(key: key, value: Int(random.next() % 5)) : .get(key: key)
        drafts.append((task, operation, invocation, response, point))
      }
      var model = RegisterMapModel()
      var results = Array(repeating: Int?.none, count: drafts.count)
      for index in drafts.indices.sorted(by: { (drafts[$0].point, $0) < (drafts[$1].point, $1) }) {
        guard case .returns(let result) = model.apply(drafts[index].operation) else { continue }
        results[index] = result
      }
      if corrupting,
        let index = drafts.indices.last(where: { if case .get = drafts[$0].operation { true } else { false } })
      {
        results[index] = 99
      }
      // Invocations and responses at even and odd times, so no two events share a time.
      return OperationHistory(
        drafts.indices.map { index in
          .init(
            task: drafts[index].task, operation: drafts[index].operation, result: results[index],
            invocation: drafts[index].invocation * 2, response: drafts[index].response * 2 + 1)
        })
    }
  }
#endif
