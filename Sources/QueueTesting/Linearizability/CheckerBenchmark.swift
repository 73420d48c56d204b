#if compiler(>=6.3)
  /// The linearizability checker timed on generated histories, for `Benchmarks/linearizability.sh`
  /// (`@_spi(Benchmarks) import QueueTesting`): not part of the public API, which checks histories
  /// it records itself.
  @_spi(Benchmarks) public enum CheckerBenchmark {
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
        let history = RegisterMapModel.history(
          count: operations, tasks: tasks, keys: keys, seed: seed &+ UInt64(index), corrupting: corrupting)
        var verdict = LinearizabilityVerdict.unknown("")
        let time = clock.measure {
          verdict =
            partitioned
            ? checker.check(history, from: RegisterMapModel(), partitionedBy: \.key)
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
  }
#endif
