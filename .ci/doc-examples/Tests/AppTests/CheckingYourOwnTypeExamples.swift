// The examples of the README's "Checking your own type" and of the article of that name:
// `counterIsLinearizable` fails by design (the README shows its failure, and `.ci/docs.sh` checks
// that output); the others pass.
import QueueTesting
import Testing

/// The counter the README checks: `increment()` reads its value, awaits its log, then writes.
actor HitCounter {
  private var value = 0
  private let log = HitLog()

  func increment() async -> Int {
    let read = value
    await log.note()
    value = read + 1
    return value
  }

  func get() -> Int { value }
}

/// Its fixed twin: it writes before it awaits.
actor AtomicHitCounter {
  private var value = 0
  private let log = HitLog()

  func increment() async -> Int {
    value += 1
    let result = value
    await log.note()
    return result
  }

  func get() -> Int { value }
}

actor HitLog {
  private(set) var notes = 0
  func note() { notes += 1 }
}

struct CounterModel: SequentialModel {
  enum Operation: Hashable, Sendable { case increment, get }
  var value = 0
  mutating func apply(_ operation: Operation) -> ModelStep<Int> {
    if operation == .increment { value += 1 }
    return .returns(value)
  }
}

@Test func counterIsLinearizable() async {
  await expectLinearizable(
    LinearizabilityCheck(
      model: CounterModel(),
      operations: { random in Bool.random(using: &random) ? .increment : .get },
      make: { HitCounter() },
      perform: { counter, operation in
        operation == .increment ? await counter.increment() : await counter.get()
      }))
}

// The article: operations that wait.

struct MailboxModel: SequentialModel {
  enum Operation: Hashable, Sendable { case send(Int), receive }
  var messages: [Int] = []
  mutating func apply(_ operation: Operation) -> ModelStep<Int> {
    switch operation {
    case .send(let message):
      messages.append(message)
      return .returns(0)
    case .receive:
      guard !messages.isEmpty else { return .waits }   // receive on an empty mailbox suspends
      return .returns(messages.removeFirst())
    }
  }
}

actor Mailbox {
  private var messages: [Int] = []
  private var receivers: [CheckedContinuation<Int, Never>] = []

  func send(_ message: Int) {
    if receivers.isEmpty { messages.append(message) } else { receivers.removeFirst().resume(returning: message) }
  }

  func receive() async -> Int {
    if !messages.isEmpty { return messages.removeFirst() }
    return await withCheckedContinuation { receivers.append($0) }
  }
}

@Test func mailboxIsLinearizable() async {
  await expectLinearizable(
    LinearizabilityCheck(
      model: MailboxModel(),
      operations: { random in
        Bool.random(using: &random) ? .send(Int.random(in: 1...3, using: &random)) : .receive
      },
      shrink: { operation in
        guard case .send(let message) = operation, message > 1 else { return [] }
        return [.send(1)]
      },
      make: { Mailbox() },
      perform: { mailbox, operation in
        switch operation {
        case .send(let message):
          await mailbox.send(message)
          return 0
        case .receive:
          return await mailbox.receive()
        }
      }))
}

@Test func twoReceiversAndOneMessage() async {
  let check = LinearizabilityCheck(
    model: MailboxModel(),
    operations: { random in .receive },
    make: { Mailbox() },
    perform: { mailbox, operation in
      if case .send(let message) = operation { await mailbox.send(message) }
      return operation == .receive ? await mailbox.receive() : 0
    })
  await expectLinearizable(check, scenario: OperationScenario(parallel: [[.receive], [.receive, .send(1)]]))
}

// The article: a cancellable operation.

struct TicketModel: SequentialModel {
  enum Operation: Hashable, Sendable { case take, release }
  var tickets = 1
  mutating func apply(_ operation: Operation) -> ModelStep<Bool> {
    switch operation {
    case .take:
      guard tickets > 0 else { return .cancellable(.waits) }
      tickets -= 1
      return .cancellable(.returns(true))   // or, cancelled, throws CancellationError and takes none
    case .release:
      tickets += 1
      return .returns(true)
    }
  }
}

// The article: a large model split by key.

struct DirectoryModel: SequentialModel {
  enum Operation: Hashable, Sendable { case set(key: Int, value: Int), get(key: Int) }
  var entries: [Int: Int] = [:]
  mutating func apply(_ operation: Operation) -> ModelStep<Int?> {
    switch operation {
    case .set(let key, let value):
      entries[key] = value
      return .returns(nil)
    case .get(let key):
      return .returns(entries[key])
    }
  }
}

actor Directory {
  private var entries: [Int: Int] = [:]
  func set(_ key: Int, _ value: Int) { entries[key] = value }
  func get(_ key: Int) -> Int? { entries[key] }
}

@Test func directoryIsLinearizable() async {
  var check = LinearizabilityCheck(
    model: DirectoryModel(),
    operations: { random in
      let key = Int.random(in: 1...4, using: &random)
      return Bool.random(using: &random) ? .set(key: key, value: Int.random(in: 1...9, using: &random)) : .get(key: key)
    },
    make: { Directory() },
    perform: { directory, operation in
      switch operation {
      case .set(let key, let value):
        await directory.set(key, value)
        return nil
      case .get(let key):
        return await directory.get(key)
      }
    })
  check.tasks = 3
  check.operationsPerTask = 4
  await expectLinearizable(
    check.partitioned { operation in
      switch operation {
      case .set(let key, _), .get(let key): key
      }
    })
}

// Doc comments: ScenarioRandom and OperationScenario.

@Test func docCommentExamplesOfTheCheck() async {
  let check = LinearizabilityCheck(
    model: MailboxModel(),
    operations: { random in
      Bool.random(using: &random) ? .send(Int.random(in: 1...3, using: &random)) : .receive
    },
    make: { Mailbox() },
    perform: { mailbox, operation in
      if case .send(let message) = operation { await mailbox.send(message) }
      return operation == .receive ? await mailbox.receive() : 0
    })
  let scenario: OperationScenario<MailboxModel.Operation> =
    OperationScenario(initial: [.send(1)], parallel: [[.receive], [.receive, .send(2)]])
  await expectLinearizable(check, scenario: scenario)
}
