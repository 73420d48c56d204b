/// Decides whether a concurrent history is linearizable with respect to a sequential model: is
/// there one order of its operations, consistent with real time (an operation that returned
/// before another was invoked comes first), in which the model gives every operation the result
/// it had?
///
/// The search is Wing and Gong's, as Lowe refined it: the history's invocations and responses in
/// one list; the next operation to place is one whose invocation comes before the first response
/// still in the list; placing it applies it to the model, and a result that differs, or a
/// response reached with nothing left to place, backtracks. Each (set of placed operations,
/// model state) pair is explored once, so histories whose operations commute stay small.
///
/// Pending operations (invoked, never returned) are never placed: the history is linearizable
/// only if the model, in the state the order ends in, says each of them would wait there (a
/// `dequeue` still suspended on an empty queue is fine; one suspended beside an element is not).
/// An operation that waits in the model and returned in the run is placed at a state where the
/// model lets it complete: after the operation that released it.
///
/// Caps keep it from running away: past ``maximumStates`` distinct states, or its deadline, the
/// answer is ``LinearizabilityVerdict/unknown(_:)`` with the reason, never a hang.
package struct LinearizabilityChecker<Model: SequentialModel>: Sendable {
  /// The most distinct (placed operations, model state) pairs the search may keep.
  package var maximumStates: Int
  /// How long the search may take, in real time (nil: no limit; the state cap still holds).
  package var timeLimit: Duration?

  package init(maximumStates: Int = 1_000_000, timeLimit: Duration? = nil) {
    self.maximumStates = maximumStates
    self.timeLimit = timeLimit
  }

  /// Checks `history` against the model, starting from `initial`.
  package func check(
    _ history: OperationHistory<Model.Operation, Model.Result>, from initial: Model
  ) -> LinearizabilityVerdict {
    var search = Search(history: history, initial: initial, checker: self)
    return search.run()
  }

  /// Checks `history` one part at a time, the operations split by `key` (P-compositionality):
  /// where the model's state falls apart by key (a map whose keys never meet), a history is
  /// linearizable exactly when each key's part is, and each part is small. A `key` that splits
  /// operations that do meet gives wrong answers.
  ///
  /// The order of a linearizable history is each part's order in turn, not one order of the
  /// whole; a violation names its part's operations by their indices in `history`.
  package func check<Key: Hashable>(
    _ history: OperationHistory<Model.Operation, Model.Result>, from initial: Model,
    partitionedBy key: (Model.Operation) -> Key
  ) -> LinearizabilityVerdict {
    var parts: [Key: [Int]] = [:]
    var keys: [Key] = []
    for (index, record) in history.records.enumerated() {
      let partKey = key(record.operation)
      if parts[partKey] == nil { keys.append(partKey) }
      parts[partKey, default: []].append(index)
    }
    var order: [Int] = []
    var unknown: String?
    for partKey in keys {
      let indices = parts[partKey]!
      let part = OperationHistory(indices.map { history.records[$0] })
      switch check(part, from: initial) {
      case .linearizable(let partOrder):
        order += partOrder.map { indices[$0] }
      case .notLinearizable(let violation):
        return .notLinearizable(
          LinearizabilityViolation(
            longestPrefix: violation.longestPrefix.map { indices[$0] },
            candidates: violation.candidates.map { indices[$0] }))
      case .unknown(let reason):
        unknown = unknown ?? reason
      }
    }
    if let unknown { return .unknown(unknown) }
    return .linearizable(order: order)
  }

  /// Checks `history` against a weaker condition than linearizability (see
  /// ``ConsistencyCondition``); `.linearizability` is ``check(_:from:)``.
  package func check(
    _ history: OperationHistory<Model.Operation, Model.Result>, from initial: Model,
    condition: ConsistencyCondition
  ) -> LinearizabilityVerdict {
    let records = history.records
    let returned = records.indices.filter { !records[$0].isPending }
    // What may come next: for sequential consistency, each task's first operation not placed
    // (program order only); for quiescent consistency, the operations of the first busy period
    // (a stretch with some operation in progress) not placed yet.
    var groups: [[Int]]
    switch condition {
    case .linearizability:
      return check(history, from: initial)
    case .sequentialConsistency:
      var byTask: [Int: [Int]] = [:]
      for index in returned.sorted(by: { records[$0].invocation < records[$1].invocation }) {
        byTask[records[index].task, default: []].append(index)
      }
      groups = byTask.keys.sorted().map { byTask[$0]! }
    case .quiescentConsistency:
      // A busy period ends where no operation is in progress; a pending one never ends.
      var periods: [[Int]] = []
      var end = Int.min
      for index in records.indices.sorted(by: { records[$0].invocation < records[$1].invocation }) {
        if records[index].invocation > end || periods.isEmpty { periods.append([]) }
        if !records[index].isPending { periods[periods.count - 1].append(index) }
        end = max(end, records[index].response ?? .max)
      }
      groups = periods.filter { !$0.isEmpty }
    }
    let pending = records.filter(\.isPending).map(\.operation)
    var owners = Array(repeating: 0, count: records.count)
    for (owner, members) in groups.enumerated() {
      for index in members { owners[index] = owner }
    }
    let programOrder = condition == .sequentialConsistency
    var placed = OperationSet(count: records.count)
    var explored: Set<Explored> = []
    var order: [Int] = []
    var longest: [Int] = []
    var positions = Array(repeating: 0, count: groups.count)
    var tooMany = false

    /// The operations that may come next.
    func candidates() -> [Int] {
      if programOrder {
        return groups.indices.compactMap { positions[$0] < groups[$0].count ? groups[$0][positions[$0]] : nil }
      }
      guard let period = groups.indices.first(where: { positions[$0] < groups[$0].count }) else { return [] }
      return groups[period].filter { !order.contains($0) }
    }
    func search(_ state: Model) -> Bool {
      if order.count == returned.count { return Self.operationsWait(pending, in: state) }
      for index in candidates() {
        guard let after = Self.state(after: records[index], from: state) else { continue }
        placed.insert(index)
        defer { placed.remove(index) }
        guard explored.insert(Explored(placed: placed, state: after)).inserted else { continue }
        if explored.count > maximumStates {
          tooMany = true
          return false
        }
        let owner = owners[index]
        order.append(index)
        positions[owner] += 1
        if order.count > longest.count { longest = order }
        if search(after) { return true }
        if tooMany { return false }
        order.removeLast()
        positions[owner] -= 1
      }
      return false
    }
    if search(initial) { return .linearizable(order: order) }
    if tooMany { return .unknown("the search kept more than \(maximumStates) states") }
    order = longest
    for (owner, members) in groups.enumerated() { positions[owner] = members.filter(longest.contains).count }
    return .notLinearizable(LinearizabilityViolation(longestPrefix: longest, candidates: candidates()))
  }

  /// Whether each of `operations` would wait in `state`: the pending operations' test.
  static func operationsWait(_ operations: [Model.Operation], in state: Model) -> Bool {
    operations.allSatisfy { operation in
      var copy = state
      return copy.apply(operation).waits
    }
  }

  /// The model's state once `record` is placed at `state`, if the model gives its outcome there:
  /// the state after the operation, or `state` itself for a cancellation that had no effect.
  package static func state(after record: OperationHistory<Model.Operation, Model.Result>.Record, from state: Model)
    -> Model?
  {
    var after = state
    switch after.apply(record.operation).accepts(record.outcome) {
    case .no: return nil
    case .withEffect: return after
    case .withoutEffect: return state
    }
  }

  /// The set of placed operations and the model state: the memo's key.
  private struct Explored: Hashable {
    var placed: OperationSet
    var state: Model
  }

  /// One search over one history: the event list (doubly linked over arrays, so placing an
  /// operation and taking it back are O(1)), the stack of placed operations, and the memo.
  private struct Search {
    let records: [OperationHistory<Model.Operation, Model.Result>.Record]
    let initial: Model
    let checker: LinearizabilityChecker
    /// Event nodes: node `2 * i` is operation i's invocation, `2 * i + 1` its response. `head`
    /// and `tail` are the list's ends.
    var next: [Int]
    var previous: [Int]
    let head: Int
    let tail: Int
    let pending: [Int]

    init(history: OperationHistory<Model.Operation, Model.Result>, initial: Model, checker: LinearizabilityChecker) {
      let records = history.records
      self.records = records
      self.initial = initial
      self.checker = checker
      let count = records.count
      head = 2 * count
      tail = 2 * count + 1
      next = Array(repeating: -1, count: 2 * count + 2)
      previous = Array(repeating: -1, count: 2 * count + 2)
      pending = records.indices.filter { records[$0].isPending }
      // The events of returned operations in time order; at equal times a response comes
      // first (the operation returned before the other was invoked).
      var events: [(time: Int, isInvocation: Bool, node: Int)] = []
      for (index, record) in records.enumerated() {
        guard let response = record.response else { continue }
        events.append((record.invocation, true, 2 * index))
        events.append((response, false, 2 * index + 1))
      }
      events.sort { ($0.time, $0.isInvocation ? 1 : 0, $0.node) < ($1.time, $1.isInvocation ? 1 : 0, $1.node) }
      var last = head
      for event in events {
        next[last] = event.node
        previous[event.node] = last
        last = event.node
      }
      next[last] = tail
      previous[tail] = last
    }

    /// Takes operation `index`'s two events out of the list.
    mutating func lift(_ index: Int) {
      for node in [2 * index, 2 * index + 1] {
        next[previous[node]] = next[node]
        previous[next[node]] = previous[node]
      }
    }

    /// Puts them back, in the reverse order of ``lift(_:)``: each node still holds its neighbours.
    mutating func unlift(_ index: Int) {
      for node in [2 * index + 1, 2 * index] {
        next[previous[node]] = node
        previous[next[node]] = node
      }
    }

    /// Whether every pending operation would wait in `state`.
    func pendingOperationsWait(in state: Model) -> Bool {
      LinearizabilityChecker.operationsWait(pending.map { records[$0].operation }, in: state)
    }

    mutating func run() -> LinearizabilityVerdict {
      var state = initial
      var placed = OperationSet(count: records.count)
      var stack: [(operation: Int, before: Model)] = []
      var explored: Set<Explored> = []
      var longest: [Int] = []
      let started = ContinuousClock.now
      var steps = 0
      var entry = next[head]
      while true {
        steps &+= 1
        if steps & 1023 == 0, let limit = checker.timeLimit, ContinuousClock.now - started > limit {
          return .unknown("the search ran past its time limit of \(limit) after \(explored.count) states")
        }
        if next[head] == tail, pendingOperationsWait(in: state) {
          return .linearizable(order: stack.map(\.operation))
        }
        let node = entry
        if node != tail, node % 2 == 0 {
          // An invocation before the first response left: try the operation next.
          let index = node / 2
          if let after = LinearizabilityChecker.state(after: records[index], from: state) {
            placed.insert(index)
            if explored.insert(Explored(placed: placed, state: after)).inserted {
              if explored.count > checker.maximumStates {
                return .unknown("the search kept more than \(checker.maximumStates) states")
              }
              stack.append((index, state))
              state = after
              lift(index)
              if stack.count > longest.count { longest = stack.map(\.operation) }
              entry = next[head]
              continue
            }
            placed.remove(index)
          }
          entry = next[node]
        } else {
          // A response, or the end: nothing left to place at this depth.
          guard let (index, before) = stack.popLast() else {
            return .notLinearizable(
              LinearizabilityViolation(longestPrefix: longest, candidates: candidates(after: longest)))
          }
          placed.remove(index)
          state = before
          unlift(index)
          entry = next[2 * index]
        }
      }
    }

    /// The operations that could have come next after `prefix` by real time: those not in it
    /// invoked before the first response of an operation not in it.
    func candidates(after prefix: [Int]) -> [Int] {
      let done = Set(prefix)
      let remaining = records.indices.filter { !done.contains($0) && !records[$0].isPending }
      guard let firstResponse = remaining.compactMap({ records[$0].response }).min() else { return [] }
      return remaining.filter { records[$0].invocation < firstResponse }
    }
  }
}

/// What a history must keep of the order its operations ran in, from strongest to weakest.
public enum ConsistencyCondition: Sendable, Equatable, CustomStringConvertible {
  /// One order that keeps real time: an operation that returned before another was invoked
  /// comes first.
  case linearizability
  /// One order that keeps each task's own order, whatever the tasks did in real time.
  case sequentialConsistency
  /// One order that keeps the order of busy periods: operations separated by a moment with no
  /// operation in progress keep their order; within a busy period, any order.
  case quiescentConsistency

  /// Its name, as a report gives it.
  public var description: String {
    switch self {
    case .linearizability: "linearizability"
    case .sequentialConsistency: "sequential consistency"
    case .quiescentConsistency: "quiescent consistency"
    }
  }
}

/// What ``LinearizabilityChecker`` found.
package enum LinearizabilityVerdict: Equatable, Sendable {
  /// An order of the returned operations (indices into the history) in which the model gives
  /// every result, consistent with real time, after which every pending operation would wait.
  case linearizable(order: [Int])
  /// No such order exists.
  case notLinearizable(LinearizabilityViolation)
  /// The search stopped at a cap before deciding; the text says which.
  case unknown(String)
}

/// Why a history is not linearizable, for a person: the longest order the model accepted, and the
/// operations that real time allowed next, none of which the model accepted there (or, when all
/// were placed, pending operations the model says would not wait).
package struct LinearizabilityViolation: Equatable, Sendable {
  /// The longest prefix of an order the model accepted (indices into the history).
  package var longestPrefix: [Int]
  /// The operations that could come next after it by real time.
  package var candidates: [Int]
}

/// A set of small integers (operation indices), as bits: the memo keys on it.
struct OperationSet: Hashable, Sendable {
  private var words: [UInt64]

  init(count: Int) {
    words = Array(repeating: 0, count: (count + 63) / 64)
  }

  mutating func insert(_ index: Int) {
    words[index / 64] |= 1 << UInt64(index % 64)
  }

  mutating func remove(_ index: Int) {
    words[index / 64] &= ~(1 << UInt64(index % 64))
  }
}
