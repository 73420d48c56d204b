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

  protocol SemaphoreUnderTest: Actor {
    func wait() async throws
    func signal()
  }

  /// Loses a permit: a waiter woken by a signal checks for cancellation after it woke, and a
  /// waiter cancelled meanwhile throws, taking the permit the signal handed it with it.
  actor PermitLosingSemaphore: SemaphoreUnderTest {
    private var permits = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async throws {
      try Task.checkCancellation()
      if permits > 0 {
        permits -= 1
        return
      }
      await withCheckedContinuation { waiters.append($0) }
      try Task.checkCancellation()
    }

    func signal() {
      if waiters.isEmpty {
        permits += 1
      } else {
        waiters.removeFirst().resume()
      }
    }
  }

  /// Its fixed twin: a waiter a signal woke holds the permit it was handed, cancelled or not.
  actor PermitKeepingSemaphore: SemaphoreUnderTest {
    private var permits = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async throws {
      try Task.checkCancellation()
      if permits > 0 {
        permits -= 1
        return
      }
      await withCheckedContinuation { waiters.append($0) }
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
    static func semaphore<Semaphore: SemaphoreUnderTest>(
      _ make: @escaping @Sendable () -> Semaphore
    ) -> LinearizabilityCheck<PermitModel, Semaphore> {
      LinearizabilityCheck<PermitModel, Semaphore>(
        model: PermitModel(),
        operations: { random in [.wait, .waitThenCancel, .signal, .signal].randomElement(using: &random)! },
        make: make,
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
