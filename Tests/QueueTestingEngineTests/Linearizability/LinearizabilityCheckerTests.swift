import Testing

@testable import QueueTestingEngine

/// A FIFO queue, sequentially: `enqueue` returns nil; `poll` returns the head or nil; `take`
/// returns the head, and waits on an empty queue.
struct QueueModel: SequentialModel {
  enum Operation: Sendable, Equatable {
    case enqueue(Int)
    case poll
    case take
  }

  var elements: [Int] = []

  mutating func apply(_ operation: Operation) -> ModelStep<Int?> {
    switch operation {
    case .enqueue(let value):
      elements.append(value)
      return .returns(nil)
    case .poll:
      return .returns(elements.isEmpty ? nil : elements.removeFirst())
    case .take:
      return elements.isEmpty ? .waits : .returns(elements.removeFirst())
    }
  }
}

/// A counting semaphore, sequentially: `wait` waits with no permit.
struct SemaphoreModel: SequentialModel {
  enum Operation: Sendable {
    case wait
    case signal
  }

  var permits = 0

  mutating func apply(_ operation: Operation) -> ModelStep<Bool> {
    switch operation {
    case .wait:
      guard permits > 0 else { return .waits }
      permits -= 1
      return .returns(true)
    case .signal:
      permits += 1
      return .returns(true)
    }
  }
}

/// A semaphore whose `wait` can be cancelled: with no permit left it waits, unless cancelled,
/// when it throws `CancellationError` and takes no permit.
struct CancellableSemaphoreModel: SequentialModel {
  var permits = 0

  mutating func apply(_ operation: SemaphoreModel.Operation) -> ModelStep<Bool> {
    switch operation {
    case .wait:
      guard permits > 0 else { return .cancellable(.waits) }
      permits -= 1
      return .cancellable(.returns(true))
    case .signal:
      permits += 1
      return .returns(true)
    }
  }
}

typealias QueueHistory = OperationHistory<QueueModel.Operation, Int?>

/// `operation` called by `task` from `invocation` to `response` (nil: pending), returning `result`.
func op(
  _ task: Int, _ operation: QueueModel.Operation, _ invocation: Int, _ response: Int?, _ result: Int?? = .some(nil)
) -> QueueHistory.Record {
  QueueHistory.Record(
    task: task, operation: operation, result: response == nil ? nil : result, invocation: invocation,
    response: response)
}

@Suite("Linearizability checker", .timeLimit(.minutes(5)), .hangGuard)
struct LinearizabilityCheckerTests {
  let checker = LinearizabilityChecker<QueueModel>()

  @Test func aSequentialHistoryIsItsOwnOrder() {
    let history = QueueHistory([
      op(0, .enqueue(1), 0, 1), op(0, .enqueue(2), 2, 3), op(1, .poll, 4, 5, 1), op(1, .poll, 6, 7, 2),
    ])
    #expect(checker.check(history, from: QueueModel()) == .linearizable(order: [0, 1, 2, 3]))
  }

  /// Two enqueues that overlap may take effect in either order.
  @Test func overlappingOperationsMayTakeEitherOrder() {
    let history = QueueHistory([op(0, .enqueue(1), 0, 3), op(1, .enqueue(2), 1, 2), op(0, .poll, 4, 5, 2)])
    #expect(checker.check(history, from: QueueModel()) == .linearizable(order: [1, 0, 2]))
  }

  /// `enqueue(1)` returned before `enqueue(2)` began, so a `poll` after both must return 1; the
  /// violation shows the longest order the model accepted and what could have come next.
  @Test func realTimeOrderIsKept() {
    let history = QueueHistory([op(0, .enqueue(1), 0, 1), op(1, .enqueue(2), 2, 3), op(0, .poll, 4, 5, 2)])
    guard case .notLinearizable(let violation) = checker.check(history, from: QueueModel()) else {
      Issue.record("expected a violation")
      return
    }
    #expect(violation.longestPrefix == [0, 1])
    #expect(violation.candidates == [2])
  }

  /// A `take` still suspended at the end is fine on an empty queue, and a violation beside an
  /// element it should have taken.
  @Test func aPendingOperationMustWaitWhereTheOrderEnds() {
    let waiting = QueueHistory([op(0, .take, 0, nil), op(1, .enqueue(1), 1, 2), op(1, .poll, 3, 4, 1)])
    #expect(checker.check(waiting, from: QueueModel()) == .linearizable(order: [1, 2]))
    let stranded = QueueHistory([op(0, .take, 0, nil), op(1, .enqueue(1), 1, 2)])
    guard case .notLinearizable = checker.check(stranded, from: QueueModel()) else {
      Issue.record("a take left waiting beside an element is a lost wake-up")
      return
    }
  }

  /// A `wait` invoked with no permit, which returned after a `signal`, is placed after it.
  @Test func anOperationThatWaitedIsPlacedAfterItsRelease() {
    let history = OperationHistory<SemaphoreModel.Operation, Bool>([
      .init(task: 0, operation: .wait, result: true, invocation: 0, response: 3),
      .init(task: 1, operation: .signal, result: true, invocation: 1, response: 2),
    ])
    #expect(
      LinearizabilityChecker<SemaphoreModel>().check(history, from: SemaphoreModel()) == .linearizable(order: [1, 0]))
    let early = OperationHistory<SemaphoreModel.Operation, Bool>([
      .init(task: 0, operation: .wait, result: true, invocation: 0, response: 1),
      .init(task: 1, operation: .signal, result: true, invocation: 2, response: 3),
    ])
    guard case .notLinearizable = LinearizabilityChecker<SemaphoreModel>().check(early, from: SemaphoreModel())
    else {
      Issue.record("a wait that returned before any signal began took a permit that did not exist")
      return
    }
  }

  /// A cancelled `wait` has no effect; a permit a cancelled waiter kept is a permit lost, seen as
  /// a later `wait` still pending beside a permit the model holds.
  @Test func aCancelledOperationHasNoEffect() {
    typealias History = OperationHistory<SemaphoreModel.Operation, Bool>
    let cancelled = OperationOutcome<Bool>.threw(ThrownError(CancellationError()))
    let checker = LinearizabilityChecker<CancellableSemaphoreModel>()
    // The cancelled wait took nothing: the signal's permit is the second wait's.
    let kept = History([
      .init(task: 0, operation: .wait, outcome: cancelled, invocation: 0, response: 3),
      .init(task: 1, operation: .signal, result: true, invocation: 1, response: 2),
      .init(task: 2, operation: .wait, result: true, invocation: 4, response: 5),
    ])
    guard case .linearizable = checker.check(kept, from: CancellableSemaphoreModel()) else {
      Issue.record("a cancelled wait was taken to have consumed a permit")
      return
    }
    // The same run where the second wait never returns: the permit was lost.
    var lost = kept
    lost.records[2] = .init(task: 2, operation: .wait, outcome: nil, invocation: 4, response: nil)
    guard case .notLinearizable = checker.check(lost, from: CancellableSemaphoreModel()) else {
      Issue.record("a wait pending beside a free permit passed")
      return
    }
    // A cancellation is not any error: a wait that threw something else fits no step.
    var other = kept
    other.records[0].outcome = .threw(ThrownError(SemaphoreFailure()))
    guard case .notLinearizable = checker.check(other, from: CancellableSemaphoreModel()) else {
      Issue.record("an error other than a cancellation was taken as one")
      return
    }
  }

  struct SemaphoreFailure: Error {}

  /// Past its cap of states the checker says it does not know, and why.
  @Test func aCapGivesUnknownWithItsReason() {
    // Twelve overlapping enqueues and polls that return nothing the model can give: every order
    // of the enqueues is a state of its own before the polls fail.
    var records: [QueueHistory.Record] = (0..<12).map { op($0, .enqueue($0), 0, 100) }
    records.append(op(12, .poll, 101, 102, 99))
    let verdict = LinearizabilityChecker<QueueModel>(maximumStates: 500).check(
      QueueHistory(records), from: QueueModel())
    #expect(verdict == .unknown("the search kept more than 500 states"))
  }

  /// Against a brute-force search over every order that keeps real time, on 2,000 random small
  /// histories: the two agree on every one, and both verdicts occur often (about 190 and 1,800).
  @Test func agreesWithBruteForce() {
    var generator = SplitMix64(seed: 45)
    var counts = (linearizable: 0, not: 0)
    for _ in 0..<2_000 {
      let history = Self.randomHistory(using: &generator)
      let expected = Self.bruteForce(history)
      let verdict = checker.check(history, from: QueueModel())
      switch verdict {
      case .linearizable(let order):
        #expect(expected, "checker found \(order) where brute force found none: \(history.records)")
        #expect(Self.accepts(order, history), "the order the checker gave is not one: \(order)")
        counts.linearizable += 1
      case .notLinearizable:
        #expect(!expected, "brute force found an order the checker missed: \(history.records)")
        counts.not += 1
      case .unknown(let reason):
        Issue.record("unknown on a small history: \(reason)")
      }
    }
    #expect(counts.linearizable > 150 && counts.not > 300, "\(counts)")
  }

  /// A history of up to six operations over three tasks, each task's operations in sequence
  /// with random gaps, results drawn from a small domain, a few left pending at the end.
  static func randomHistory(using generator: inout SplitMix64) -> QueueHistory {
    var records: [QueueHistory.Record] = []
    var time = [0, 0, 0]
    let count = Int(generator.next() % 5) + 2
    for _ in 0..<count {
      let task = Int(generator.next() % 3)
      let invocation = time[task] + Int(generator.next() % 4)
      let response = invocation + 1 + Int(generator.next() % 5)
      time[task] = response + 1
      let operation: QueueModel.Operation
      switch generator.next() % 3 {
      case 0: operation = .enqueue(Int(generator.next() % 3))
      case 1: operation = .poll
      default: operation = .take
      }
      let result: Int?? =
        switch operation {
        case .enqueue: .some(nil)
        case .poll: generator.next() % 3 == 0 ? .some(nil) : .some(Int(generator.next() % 3))
        case .take: .some(Int(generator.next() % 3))
        }
      // A task's last operation may be left pending.
      let pending = generator.next() % 6 == 0
      records.append(op(task, operation, invocation * 2, pending ? nil : response * 2 + 1, result))
      if pending { time[task] = .max / 4 }
    }
    // Time runs on per task; drop operations a pending one would have come before.
    records = records.filter { $0.invocation < .max / 8 }
    return QueueHistory(records)
  }

  /// Whether some order of the returned operations keeps real time, gives every result, and
  /// leaves every pending operation waiting (and keeps what `keeps` asks besides).
  static func bruteForce(_ history: QueueHistory, keeping keeps: (([Int]) -> Bool)? = nil) -> Bool {
    let returned = history.records.indices.filter { !history.records[$0].isPending }
    let keeps = keeps ?? { Self.keeps($0, history, .linearizability) }
    func extend(_ order: [Int]) -> Bool {
      if order.count == returned.count { return keeps(order) && accepts(order, history, keepingRealTime: false) }
      for index in returned where !order.contains(index) {
        if extend(order + [index]) { return true }
      }
      return false
    }
    return extend([])
  }

  /// Whether `order` gives every result and leaves pending operations waiting, and (unless told
  /// otherwise) keeps real time.
  static func accepts(_ order: [Int], _ history: QueueHistory, keepingRealTime: Bool = true) -> Bool {
    let records = history.records
    if keepingRealTime && !keeps(order, history, .linearizability) { return false }
    var model = QueueModel()
    for index in order {
      guard let next = LinearizabilityChecker<QueueModel>.state(after: records[index], from: model) else {
        return false
      }
      model = next
    }
    return records.filter(\.isPending).allSatisfy { record in
      var copy = model
      return copy.apply(record.operation) == .waits
    }
  }
}

extension LinearizabilityCheckerTests {
  /// Split by key, a 1,000-operation history over four tasks is decided; a wrong `get` in it is
  /// found, in its key's part, with its indices in the whole history.
  @Test func aHistorySplitByKeyIsDecidedPartByPart() {
    let checker = LinearizabilityChecker<RegisterMapModel>()
    let history = RegisterMapModel.history(count: 1_000, tasks: 4, keys: 50, seed: 7)
    guard case .linearizable(let order) = checker.check(history, from: RegisterMapModel(), partitionedBy: \.key)
    else {
      Issue.record("a history built from a sequential order must be linearizable")
      return
    }
    #expect(order.count == 1_000 && Set(order).count == 1_000)

    let corrupted = RegisterMapModel.history(count: 1_000, tasks: 4, keys: 50, seed: 7, corrupting: true)
    guard
      case .notLinearizable(let violation) = checker.check(corrupted, from: RegisterMapModel(), partitionedBy: \.key)
    else {
      Issue.record("a get that returned a value never put must be found")
      return
    }
    let wrong = corrupted.records.lastIndex { if case .get = $0.operation { true } else { false } }!
    let key = corrupted.records[wrong].operation.key
    #expect((violation.longestPrefix + violation.candidates).allSatisfy { corrupted.records[$0].operation.key == key })
  }

  /// Split or whole, the verdict is the same on small histories of a few keys.
  @Test func splittingByKeyAgreesWithTheWholeSearch() {
    let checker = LinearizabilityChecker<RegisterMapModel>()
    var agreed = (linearizable: 0, not: 0)
    for seed in UInt64(1)...300 {
      let history = RegisterMapModel.history(count: 8, tasks: 3, keys: 2, seed: seed, corrupting: seed % 2 == 0)
      let whole = checker.check(history, from: RegisterMapModel())
      let split = checker.check(history, from: RegisterMapModel(), partitionedBy: \.key)
      switch (whole, split) {
      case (.linearizable, .linearizable): agreed.linearizable += 1
      case (.notLinearizable, .notLinearizable): agreed.not += 1
      default: Issue.record("seed \(seed): whole \(whole), split \(split)")
      }
    }
    #expect(agreed.linearizable > 100 && agreed.not > 50, "\(agreed)")
  }
}

extension LinearizabilityCheckerTests {
  /// A `poll` that began after an `enqueue` returned, on another task, and found nothing: not
  /// linearizable, but sequentially consistent (the tasks' orders allow the poll first), and not
  /// quiescently consistent (a quiet moment lies between them).
  @Test func sequentialConsistencyKeepsOnlyEachTasksOrder() {
    let history = QueueHistory([op(0, .enqueue(1), 0, 1), op(1, .poll, 2, 3, .some(nil))])
    guard case .notLinearizable = checker.check(history, from: QueueModel(), condition: .linearizability) else {
      Issue.record("real time puts the enqueue first")
      return
    }
    #expect(
      checker.check(history, from: QueueModel(), condition: .sequentialConsistency) == .linearizable(order: [1, 0]))
    guard case .notLinearizable = checker.check(history, from: QueueModel(), condition: .quiescentConsistency) else {
      Issue.record("a quiet moment separates them")
      return
    }
    let ownTask = QueueHistory([op(0, .enqueue(1), 0, 1), op(0, .poll, 2, 3, .some(nil))])
    guard case .notLinearizable = checker.check(ownTask, from: QueueModel(), condition: .sequentialConsistency) else {
      Issue.record("one task's own order is kept")
      return
    }
  }

  /// Within one busy period (an enqueue in progress throughout), quiescent consistency allows
  /// any order: a poll that returns 3 after `enqueue(2)` returned before `enqueue(3)` began.
  @Test func quiescentConsistencyAllowsAnyOrderWithinABusyPeriod() {
    let history = QueueHistory([
      op(0, .enqueue(1), 0, 21), op(1, .enqueue(2), 2, 5), op(2, .enqueue(3), 6, 9), op(1, .poll, 10, 13, 3),
    ])
    guard case .notLinearizable = checker.check(history, from: QueueModel()) else {
      Issue.record("real time puts enqueue(2) before enqueue(3)")
      return
    }
    guard case .linearizable = checker.check(history, from: QueueModel(), condition: .quiescentConsistency) else {
      Issue.record("one busy period allows any order")
      return
    }
  }

  /// Against brute force for both weaker conditions, on 1,500 random small histories each.
  @Test(arguments: [ConsistencyCondition.sequentialConsistency, .quiescentConsistency])
  func weakerConditionsAgreeWithBruteForce(_ condition: ConsistencyCondition) {
    var generator = SplitMix64(seed: 46)
    var counts = (kept: 0, broken: 0)
    for _ in 0..<1_500 {
      let history = Self.randomHistory(using: &generator)
      let expected = Self.bruteForce(history) { Self.keeps($0, history, condition) }
      switch checker.check(history, from: QueueModel(), condition: condition) {
      case .linearizable(let order):
        #expect(expected, "checker found \(order) where brute force found none: \(history.records)")
        #expect(Self.keeps(order, history, condition) && Self.accepts(order, history, keepingRealTime: false))
        counts.kept += 1
      case .notLinearizable:
        #expect(!expected, "brute force found an order the checker missed: \(history.records)")
        counts.broken += 1
      case .unknown(let reason):
        Issue.record("unknown on a small history: \(reason)")
      }
    }
    #expect(counts.kept > 100 && counts.broken > 300, "\(counts)")
  }

  /// On the same random histories the three conditions part: some histories keep a weaker one
  /// and not linearizability, and sequential and quiescent consistency each keep some the other
  /// does not.
  @Test func theConditionsPart() {
    var generator = SplitMix64(seed: 46)
    var parted = (sequentialOnly: 0, quiescentOnly: 0, neitherLinearizable: 0)
    func kept(_ verdict: LinearizabilityVerdict) -> Bool {
      if case .linearizable = verdict { return true }
      return false
    }
    for _ in 0..<1_500 {
      let history = Self.randomHistory(using: &generator)
      let linearizable = kept(checker.check(history, from: QueueModel()))
      let sequential = kept(checker.check(history, from: QueueModel(), condition: .sequentialConsistency))
      let quiescent = kept(checker.check(history, from: QueueModel(), condition: .quiescentConsistency))
      #expect(!linearizable || (sequential && quiescent), "linearizable implies both: \(history.records)")
      if sequential && !quiescent { parted.sequentialOnly += 1 }
      if quiescent && !sequential { parted.quiescentOnly += 1 }
      if (sequential || quiescent) && !linearizable { parted.neitherLinearizable += 1 }
    }
    #expect(parted.sequentialOnly > 0 && parted.quiescentOnly > 0 && parted.neitherLinearizable > 0, "\(parted)")
  }

  /// Whether `order` keeps what `condition` asks of it: each task's order, or the order of
  /// operations with a moment between them when none was in progress.
  static func keeps(_ order: [Int], _ history: QueueHistory, _ condition: ConsistencyCondition) -> Bool {
    let records = history.records
    func quietBetween(_ first: Int, _ second: Int) -> Bool {
      // Doubled times, so that a moment strictly between two events is an integer.
      let from = 2 * records[first].response!
      let to = 2 * records[second].invocation
      guard from + 1 < to else { return false }
      return (from + 1..<to).contains { moment in
        !records.contains { 2 * $0.invocation <= moment && moment <= 2 * ($0.response ?? .max / 4) }
      }
    }
    for (position, index) in order.enumerated() {
      for later in order[(position + 1)...] {
        switch condition {
        case .linearizability:
          if records[later].response! < records[index].invocation { return false }
        case .sequentialConsistency:
          if records[later].task == records[index].task && records[later].invocation < records[index].invocation {
            return false
          }
        case .quiescentConsistency:
          if records[later].response! < records[index].invocation && quietBetween(later, index) { return false }
        }
      }
    }
    return true
  }
}
