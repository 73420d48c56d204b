#if compiler(>=6.3)
  import QueueTesting

  /// A cache of values fetched by key: the first `value(for:)` of a key fetches it, later ones get
  /// what it fetched. Each fetch gives a new number, so fetching a key twice shows.
  struct CacheModel: SequentialModel {
    enum Operation: Hashable, Sendable, CustomStringConvertible {
      case value(key: Int)
      var description: String {
        switch self {
        case .value(let key): "value(for: \(key))"
        }
      }
    }

    var cached: [Int: Int] = [:]
    var fetches = 0

    mutating func apply(_ operation: Operation) -> ModelStep<Int> {
      switch operation {
      case .value(let key):
        if let value = cached[key] { return .returns(value) }
        fetches += 1
        cached[key] = key * 100 + fetches
        return .returns(key * 100 + fetches)
      }
    }
  }

  /// Where a cache fetches from: each fetch is numbered.
  actor Backend {
    private var fetches = 0
    func fetch(_ key: Int) -> Int {
      fetches += 1
      return key * 100 + fetches
    }
  }

  protocol CacheUnderTest: Actor {
    func value(for key: Int) async -> Int
  }

  /// Check-then-act across an await: it looks the key up, awaits the fetch, then stores it, so two
  /// callers that miss at once both fetch.
  actor CheckThenFetchCache: CacheUnderTest {
    private let backend = Backend()
    private var cached: [Int: Int] = [:]

    func value(for key: Int) async -> Int {
      if let value = cached[key] { return value }
      let fetched = await backend.fetch(key)
      cached[key] = fetched
      return fetched
    }
  }

  /// Its fixed twin: the first caller stores the fetch in flight, and the others await that one.
  actor InFlightCache: CacheUnderTest {
    private let backend = Backend()
    private var entries: [Int: Task<Int, Never>] = [:]

    func value(for key: Int) async -> Int {
      if let entry = entries[key] { return await entry.value }
      let backend = backend
      let entry = Task { await backend.fetch(key) }
      entries[key] = entry
      return await entry.value
    }
  }

  extension LinearizabilityCheck where Model == CacheModel {
    static func cache<Cache: CacheUnderTest>(
      _ make: @escaping @Sendable () -> Cache
    ) -> LinearizabilityCheck<CacheModel, Cache> {
      LinearizabilityCheck<CacheModel, Cache>(
        model: CacheModel(),
        operations: { random in .value(key: Int.random(in: 1...2, using: &random)) },
        shrink: { operation in
          guard case .value(let key) = operation, key > 1 else { return [] }
          return [.value(key: 1)]
        },
        make: make,
        perform: { cache, operation in
          switch operation {
          case .value(let key): await cache.value(for: key)
          }
        })
    }
  }
#endif
