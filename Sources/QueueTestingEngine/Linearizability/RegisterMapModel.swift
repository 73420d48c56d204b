/// A map of registers, sequentially: `put` returns the value it replaced; `get` the value. Its
/// keys never meet, so a history splits by key. With ``history(count:tasks:keys:seed:corrupting:)``
/// it makes histories of known verdicts, which the checker's tests and its benchmark decide.
package struct RegisterMapModel: SequentialModel {
  package enum Operation: Hashable, Sendable {
    case put(key: Int, value: Int)
    case get(key: Int)

    package var key: Int {
      switch self {
      case .put(let key, _), .get(let key): key
      }
    }
  }

  var values: [Int: Int] = [:]

  package init() {}

  package mutating func apply(_ operation: Operation) -> ModelStep<Int?> {
    switch operation {
    case .put(let key, let value):
      defer { values[key] = value }
      return .returns(values[key])
    case .get(let key):
      return .returns(values[key])
    }
  }

  /// A linearizable history of `count` operations over `tasks` tasks and `keys` keys: each
  /// operation takes effect at a random point inside its interval, and its result is what the
  /// model gives in the order of those points. With `corrupting`, one `get`'s result is wrong.
  package static func history(
    count: Int, tasks: Int, keys: Int, seed: UInt64, corrupting: Bool = false
  ) -> OperationHistory<Operation, Int?> {
    var generator = ScenarioRandom(seed: seed)
    var time = Array(repeating: 0, count: tasks)
    var drafts: [(task: Int, operation: Operation, invocation: Int, response: Int, point: Int)] = []
    for _ in 0..<count {
      let task = Int(generator.next() % UInt64(tasks))
      let invocation = time[task] + Int(generator.next() % 3)
      let response = invocation + 1 + Int(generator.next() % 6)
      let point = invocation + Int(generator.next() % UInt64(response - invocation + 1))
      time[task] = response + 1
      let key = Int(generator.next() % UInt64(keys))
      let operation: Operation =
        generator.next() % 2 == 0 ? .put(key: key, value: Int(generator.next() % 5)) : .get(key: key)
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
