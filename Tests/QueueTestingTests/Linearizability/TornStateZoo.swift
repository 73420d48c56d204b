#if compiler(>=6.3)
  import QueueTesting

  /// An account's balance and its count of deposits, read together.
  struct AccountModel: SequentialModel {
    enum Operation: Hashable, Sendable, CustomStringConvertible {
      case deposit(Int)
      case snapshot
      var description: String {
        switch self {
        case .deposit(let amount): "deposit(\(amount))"
        case .snapshot: "snapshot()"
        }
      }
    }

    struct Snapshot: Hashable, Sendable, CustomStringConvertible {
      var balance: Int
      var deposits: Int
      var description: String { "(balance \(balance), deposits \(deposits))" }
    }

    var state = Snapshot(balance: 0, deposits: 0)

    mutating func apply(_ operation: Operation) -> ModelStep<Snapshot> {
      switch operation {
      case .deposit(let amount):
        state.balance += amount
        state.deposits += 1
        return .returns(state)
      case .snapshot:
        return .returns(state)
      }
    }
  }

  protocol AccountUnderTest: Actor {
    func deposit(_ amount: Int) async -> AccountModel.Snapshot
    func snapshot() -> AccountModel.Snapshot
  }

  /// Two fields updated around an await: the balance before the audit, the count after it, so a
  /// snapshot in between sees one without the other.
  actor TornAccount: AccountUnderTest {
    private var balance = 0
    private var deposits = 0
    private let log = AuditLog()

    func deposit(_ amount: Int) async -> AccountModel.Snapshot {
      balance += amount
      await log.note()
      deposits += 1
      return AccountModel.Snapshot(balance: balance, deposits: deposits)
    }

    func snapshot() -> AccountModel.Snapshot { AccountModel.Snapshot(balance: balance, deposits: deposits) }
  }

  /// Its fixed twin: both fields change before the await.
  actor WholeAccount: AccountUnderTest {
    private var balance = 0
    private var deposits = 0
    private let log = AuditLog()

    func deposit(_ amount: Int) async -> AccountModel.Snapshot {
      balance += amount
      deposits += 1
      let after = AccountModel.Snapshot(balance: balance, deposits: deposits)
      await log.note()
      return after
    }

    func snapshot() -> AccountModel.Snapshot { AccountModel.Snapshot(balance: balance, deposits: deposits) }
  }

  extension LinearizabilityCheck where Model == AccountModel {
    static func account<Account: AccountUnderTest>(
      _ make: @escaping @Sendable () -> Account
    ) -> LinearizabilityCheck<AccountModel, Account> {
      LinearizabilityCheck<AccountModel, Account>(
        model: AccountModel(),
        operations: { random in
          Bool.random(using: &random) ? .deposit(Int.random(in: 1...3, using: &random)) : .snapshot
        },
        shrink: { operation in
          guard case .deposit(let amount) = operation else { return [] }
          return (1..<amount).map(AccountModel.Operation.deposit)
        },
        make: make,
        perform: { account, operation in
          switch operation {
          case .deposit(let amount): await account.deposit(amount)
          case .snapshot: await account.snapshot()
          }
        })
    }
  }
#endif
