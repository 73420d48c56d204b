#if compiler(>=6.3)
  import QueueTesting

  /// A counting semaphore whose wait a caller may cancel: a cancelled wait throws
  /// `CancellationError` and takes no permit.
  struct PermitModel: SequentialModel {
    enum Operation: Hashable, Sendable, CustomStringConvertible {
      case wait
      /// A wait its caller cancels while it may be waiting.
      case waitThenCancel
      case signal
      var description: String {
        switch self {
        case .wait: "wait()"
        case .waitThenCancel: "wait() cancelled"
        case .signal: "signal()"
        }
      }
    }

    var permits = 0

    mutating func apply(_ operation: Operation) -> ModelStep<Bool> {
      switch operation {
      case .wait, .waitThenCancel:
        guard permits > 0 else { return .cancellable(.waits) }
        permits -= 1
        return .cancellable(.returns(true))
      case .signal:
        permits += 1
        return .returns(true)
      }
    }
  }

  /// A counting semaphore. `losesPermits` is the bug: a waiter woken by a signal checks for
  /// cancellation after it woke, and a waiter cancelled meanwhile throws, taking the permit the
  /// signal handed it with it. Without it (the fixed twin) a woken waiter holds its permit,
  /// cancelled or not.
  actor ZooSemaphore {
    private let losesPermits: Bool
    private var permits = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(losesPermits: Bool) {
      self.losesPermits = losesPermits
    }

    func wait() async throws {
      try Task.checkCancellation()
      if permits > 0 {
        permits -= 1
        return
      }
      await withCheckedContinuation { waiters.append($0) }
      if losesPermits { try Task.checkCancellation() }
    }

    func signal() {
      if waiters.isEmpty {
        permits += 1
      } else {
        waiters.removeFirst().resume()
      }
    }
  }

  extension LinearizabilityCheck where Model == PermitModel {
    static func semaphore(losesPermits: Bool) -> LinearizabilityCheck<PermitModel, ZooSemaphore> {
      LinearizabilityCheck<PermitModel, ZooSemaphore>(
        model: PermitModel(),
        operations: { random in [.wait, .waitThenCancel, .signal, .signal].randomElement(using: &random)! },
        make: { ZooSemaphore(losesPermits: losesPermits) },
        perform: { semaphore, operation in
          switch operation {
          case .wait:
            try await semaphore.wait()
          case .waitThenCancel:
            // The wait runs as a task of its own, cancelled once it has had a chance to start.
            let waiting = Task { try await semaphore.wait() }
            await Task.yield()
            waiting.cancel()
            try await waiting.value
          case .signal:
            await semaphore.signal()
          }
          return true
        })
    }
  }
#endif
