#if compiler(>=6.3)
  import QueueTesting

  /// Ten units over two shards: `move` takes one from the first to the second, `total` counts
  /// them all, always ten.
  struct TransferModel: SequentialModel {
    enum Operation: Hashable, Sendable, CustomStringConvertible {
      case move
      case total
      var description: String { self == .move ? "move()" : "total()" }
    }

    var moved = 0

    mutating func apply(_ operation: Operation) -> ModelStep<Int> {
      switch operation {
      case .move:
        moved += 1
        return .returns(0)
      case .total:
        return .returns(10)
      }
    }
  }

  actor Shard {
    private(set) var units: Int
    init(units: Int) { self.units = units }
    func add(_ change: Int) { units += change }
  }

  protocol TransferUnderTest: Sendable {
    func move() async
    func total() async -> Int
  }

  /// Counts two actors without one order: `total` reads one shard, then the other, and a move in
  /// between is counted once or twice.
  final class TwoShardLedger: TransferUnderTest {
    private let first = Shard(units: 10)
    private let second = Shard(units: 0)

    func move() async {
      await first.add(-1)
      await second.add(1)
    }

    func total() async -> Int {
      let one = await first.units
      let two = await second.units
      return one + two
    }
  }

  /// Its fixed twin: one actor holds both shards, so a move and a count never interleave.
  actor OneActorLedger: TransferUnderTest {
    private var first = 10
    private var second = 0
    private let log = AuditLog()

    func move() async {
      first -= 1
      second += 1
      await log.note()
    }

    func total() -> Int { first + second }
  }

  extension LinearizabilityCheck where Model == TransferModel {
    static func transfer<Ledger: TransferUnderTest>(
      _ make: @escaping @Sendable () -> Ledger
    ) -> LinearizabilityCheck<TransferModel, Ledger> {
      LinearizabilityCheck<TransferModel, Ledger>(
        model: TransferModel(),
        operations: { random in Bool.random(using: &random) ? .move : .total },
        make: make,
        perform: { ledger, operation in
          switch operation {
          case .move:
            await ledger.move()
            return 0
          case .total:
            return await ledger.total()
          }
        })
    }
  }
#endif
