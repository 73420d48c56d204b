#if compiler(>=6.3)
  import QueueTesting

  /// An unbounded queue whose `dequeue` waits for an element when it is empty.
  struct WaitingQueueModel: SequentialModel {
    enum Operation: Hashable, Sendable, CustomStringConvertible {
      case enqueue(Int)
      case dequeue
      var description: String {
        switch self {
        case .enqueue(let value): "enqueue(\(value))"
        case .dequeue: "dequeue()"
        }
      }
    }

    var items: [Int] = []

    mutating func apply(_ operation: Operation) -> ModelStep<Int> {
      switch operation {
      case .enqueue(let value):
        items.append(value)
        return .returns(0)
      case .dequeue:
        guard !items.isEmpty else { return .waits }
        return .returns(items.removeFirst())
      }
    }
  }

  /// A step a queue awaits, as real ones await a log or a metric.
  actor Metrics {
    private(set) var events = 0
    func count() { events += 1 }
  }

  /// A queue whose `dequeue` waits on an empty queue. `losesWakeUps` is the bug: `dequeue` finds
  /// the queue empty, awaits a metric, and only then registers as a waiter, so an `enqueue` in
  /// between finds no waiter and the element sits beside a dequeuer that waits for ever. Without
  /// it (the fixed twin) the dequeuer registers before anything else can run on the actor.
  actor WaitingQueue {
    private let losesWakeUps: Bool
    private var items: [Int] = []
    private var waiters: [CheckedContinuation<Int, Never>] = []
    private let metrics = Metrics()

    init(losesWakeUps: Bool) {
      self.losesWakeUps = losesWakeUps
    }

    func enqueue(_ value: Int) {
      if waiters.isEmpty {
        items.append(value)
      } else {
        waiters.removeFirst().resume(returning: value)
      }
    }

    func dequeue() async -> Int {
      if !items.isEmpty { return items.removeFirst() }
      if losesWakeUps { await metrics.count() }
      let value = await withCheckedContinuation { waiters.append($0) }
      if !losesWakeUps { await metrics.count() }
      return value
    }
  }

  extension LinearizabilityCheck where Model == WaitingQueueModel {
    static func waitingQueue(losesWakeUps: Bool) -> LinearizabilityCheck<WaitingQueueModel, WaitingQueue> {
      LinearizabilityCheck<WaitingQueueModel, WaitingQueue>(
        model: WaitingQueueModel(),
        operations: { random in
          Bool.random(using: &random) ? .enqueue(Int.random(in: 1...3, using: &random)) : .dequeue
        },
        shrink: { operation in
          guard case .enqueue(let value) = operation else { return [] }
          return (1..<value).map(WaitingQueueModel.Operation.enqueue)
        },
        make: { WaitingQueue(losesWakeUps: losesWakeUps) },
        perform: { queue, operation in
          switch operation {
          case .enqueue(let value):
            await queue.enqueue(value)
            return 0
          case .dequeue:
            return await queue.dequeue()
          }
        })
    }
  }
#endif
