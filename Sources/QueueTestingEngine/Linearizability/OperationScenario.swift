/// A small concurrent scenario to check a type with: operations run one after another first (the
/// initial part), then by several tasks at once (the parallel part: one column per task, each
/// column in order), then one after another again (the final part).
///
/// A check makes its scenarios at random from a seed; write one by hand to check a case you
/// have in mind:
///
/// ```swift
/// OperationScenario(initial: [.send(1)], parallel: [[.receive], [.receive, .send(2)]])
/// ```
public struct OperationScenario<Operation: Sendable>: Sendable {
  /// Run before the parallel part, in order, by one task.
  public var initial: [Operation]
  /// One column per task; the tasks run at once, each its column in order.
  public var parallel: [[Operation]]
  /// Run after the parallel part, in order, by one task: once every task of the parallel part
  /// has returned, or is waiting for something only this part can give.
  public var final: [Operation]

  /// A scenario of these parts.
  public init(initial: [Operation] = [], parallel: [[Operation]], final: [Operation] = []) {
    self.initial = initial
    self.parallel = parallel
    self.final = final
  }

  /// How many operations it holds.
  public var operationCount: Int {
    initial.count + parallel.reduce(0) { $0 + $1.count } + final.count
  }

  /// A scenario of `tasks` columns of `operationsPerTask` operations, and `initialCount` and
  /// `finalCount` operations around them, each drawn by `generate` from a generator seeded with
  /// `seed`: the same seed gives the same scenario.
  package static func random(
    seed: UInt64, tasks: Int, operationsPerTask: Int, initialCount: Int = 0, finalCount: Int = 0,
    generate: (inout ScenarioRandom) -> Operation
  ) -> OperationScenario {
    var generator = ScenarioRandom(seed: seed)
    let initial = (0..<initialCount).map { _ in generate(&generator) }
    let parallel = (0..<tasks).map { _ in (0..<operationsPerTask).map { _ in generate(&generator) } }
    let final = (0..<finalCount).map { _ in generate(&generator) }
    return OperationScenario(initial: initial, parallel: parallel, final: final)
  }
}

extension OperationScenario: Equatable where Operation: Equatable {}
