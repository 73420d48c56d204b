#if compiler(>=6.3)
  import QueueTesting

  /// A counter's operations and its sequential model: `increment` returns the new value.
  struct CounterModel: SequentialModel {
    enum Operation: Hashable, Sendable, CustomStringConvertible {
      case increment
      case get

      var description: String { self == .increment ? "increment()" : "get()" }
    }

    var value = 0

    mutating func apply(_ operation: Operation) -> ModelStep<Int> {
      switch operation {
      case .increment:
        value += 1
        return .returns(value)
      case .get:
        return .returns(value)
      }
    }
  }

  /// Something a counter awaits between its steps, as real ones await a log or a store.
  actor AuditLog {
    private(set) var entries = 0
    func note() { entries += 1 }
  }

  /// The read-await-write counter: it reads its value, awaits the log, then writes what it read
  /// plus one, so two increments that overlap at the await both write the same value.
  actor ReadAwaitWriteCounter {
    private var value = 0
    private let log = AuditLog()

    func increment() async -> Int {
      let read = value
      await log.note()
      value = read + 1
      return value
    }

    func get() -> Int { value }
  }

  /// Its fixed twin: it writes before it awaits.
  actor WriteThenAwaitCounter {
    private var value = 0
    private let log = AuditLog()

    func increment() async -> Int {
      value += 1
      let result = value
      await log.note()
      return result
    }

    func get() -> Int { value }
  }

  /// A counter under test, either twin.
  protocol CounterUnderTest: Actor {
    func increment() async -> Int
    func get() async -> Int
  }

  extension ReadAwaitWriteCounter: CounterUnderTest {}
  extension WriteThenAwaitCounter: CounterUnderTest {}

  extension LinearizabilityCheck where Model == CounterModel {
    /// The counter check for the counter that `make` makes.
    static func counter<Counter: CounterUnderTest>(
      _ make: @escaping @Sendable () -> Counter
    ) -> LinearizabilityCheck<CounterModel, Counter> {
      LinearizabilityCheck<CounterModel, Counter>(
        model: CounterModel(),
        operations: { random in Bool.random(using: &random) ? .increment : .get },
        make: make,
        perform: { counter, operation in
          switch operation {
          case .increment: await counter.increment()
          case .get: await counter.get()
          }
        })
    }
  }
#endif
