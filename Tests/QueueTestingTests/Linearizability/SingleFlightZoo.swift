#if compiler(>=6.3)
  import QueueTesting

  /// A value loaded once and shared until `invalidate`: after an invalidation returns, the next
  /// `value()` gives the source's new version, never the old one.
  struct VersionedValueModel: SequentialModel {
    enum Operation: Hashable, Sendable, CustomStringConvertible {
      case value
      case invalidate
      var description: String { self == .value ? "value()" : "invalidate()" }
    }

    var version = 0

    mutating func apply(_ operation: Operation) -> ModelStep<Int> {
      switch operation {
      case .value:
        return .returns(version)
      case .invalidate:
        version += 1
        return .returns(0)
      }
    }
  }

  /// Where the value comes from: its version goes up on every change.
  actor VersionedSource {
    private(set) var version = 0
    func change() { version += 1 }
  }

  protocol VersionedValueUnderTest: Actor {
    func value() async -> Int
    func invalidate() async
  }

  /// Hands out a stale value: `invalidate` clears the cached value but not the load in flight, so
  /// a caller after it joins a load that read the old version, and that load caches it again.
  actor StaleSingleFlight: VersionedValueUnderTest {
    private let source = VersionedSource()
    private var cached: Int?
    private var loading: Task<Int, Never>?

    func value() async -> Int {
      if let cached { return cached }
      if let loading { return await loading.value }
      let source = source
      let load = Task { await source.version }
      loading = load
      let value = await load.value
      cached = value
      loading = nil
      return value
    }

    func invalidate() async {
      await source.change()
      cached = nil
    }
  }

  /// Its fixed twin: an invalidation forgets the load in flight, and a load keeps its value only
  /// if no invalidation came since it began.
  actor FreshSingleFlight: VersionedValueUnderTest {
    private let source = VersionedSource()
    private var cached: Int?
    private var loading: Task<Int, Never>?
    private var generation = 0

    func value() async -> Int {
      if let cached { return cached }
      if let loading { return await loading.value }
      let source = source
      let load = Task { await source.version }
      let started = generation
      loading = load
      let value = await load.value
      if generation == started {
        cached = value
        loading = nil
      }
      return value
    }

    func invalidate() async {
      await source.change()
      generation += 1
      cached = nil
      loading = nil
    }
  }

  extension LinearizabilityCheck where Model == VersionedValueModel {
    static func versionedValue<Value: VersionedValueUnderTest>(
      _ make: @escaping @Sendable () -> Value
    ) -> LinearizabilityCheck<VersionedValueModel, Value> {
      LinearizabilityCheck<VersionedValueModel, Value>(
        model: VersionedValueModel(),
        operations: { random in Int.random(in: 0..<3, using: &random) == 0 ? .invalidate : .value },
        make: make,
        perform: { value, operation in
          switch operation {
          case .value:
            return await value.value()
          case .invalidate:
            await value.invalidate()
            return 0
          }
        })
    }
  }
#endif
