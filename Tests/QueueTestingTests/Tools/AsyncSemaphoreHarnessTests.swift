#if compiler(>=6.3)
  import QueueTesting
  import Testing
  import QueueWorkloads

  @testable import AsyncQueue

  /// What the race test needs of a semaphore.
  protocol CancellableSemaphore: Sendable {
    func waitUnlessCancelled() async throws
    @discardableResult func signal() -> Bool
    /// Permits no one holds.
    var freePermits: Int { get }
  }

  extension AsyncSemaphore: CancellableSemaphore {
    var freePermits: Int { counts.free }
  }

  /// A semaphore with the bug users report: counted as `DispatchSemaphore` counts (the value
  /// goes below zero while tasks wait), a cancelled waiter always gives its place back to the
  /// count, even when a signal took it out of line first, and a waiter whose task was cancelled
  /// before it came in line stays in it. Whether either breaks anything depends on which of the
  /// waiter, the signal and the cancellation comes first.
  final class CountingSemaphore: CancellableSemaphore {
    private let state = LockedState<
      (value: Int, waiters: [(UInt64, UnsafeContinuation<Void, any Error>)], next: UInt64)
    >
    .make((0, [], 0))

    var freePermits: Int { max(state.withLock { $0.value }, 0) }

    func waitUnlessCancelled() async throws {
      let id: UInt64? = state.withLock { state in
        state.value -= 1
        state.next += 1
        return state.value >= 0 ? nil : state.next
      }
      guard let id else { return }
      try await withTaskCancellationHandler {
        try await withUnsafeThrowingContinuation { (waiter: UnsafeContinuation<Void, any Error>) in
          state.withLock { $0.waiters.append((id, waiter)) }
        }
      } onCancel: {
        let waiter = state.withLock { state -> UnsafeContinuation<Void, any Error>? in
          state.value += 1
          guard let index = state.waiters.firstIndex(where: { $0.0 == id }) else { return nil }
          return state.waiters.remove(at: index).1
        }
        waiter?.resume(throwing: CancellationError())
      }
    }

    @discardableResult func signal() -> Bool {
      let waiter = state.withLock { state -> UnsafeContinuation<Void, any Error>? in
        state.value += 1
        return state.value <= 0 && !state.waiters.isEmpty ? state.waiters.removeFirst().1 : nil
      }
      waiter?.resume()
      return waiter != nil
    }
  }

  /// `AsyncSemaphore` under the controlled executor: a cancellation and a signal racing for one
  /// waiter, at every interleaving.
  @Suite("AsyncSemaphore under controlled schedules", .serialized, .timeLimit(.minutes(5)), .hangGuard)
  struct AsyncSemaphoreHarnessTests {
    /// One waiter on an empty semaphore, one task that signals, one that cancels the waiter:
    /// afterwards the waiter either holds the permit (and none is free) or threw (and the permit
    /// is free). A mark says which rule broke.
    static func race(_ semaphore: some CancellableSemaphore) async {
      let waiter = Task(name: "waiter") { () -> Bool in
        do {
          try await semaphore.waitUnlessCancelled()
          return true
        } catch {
          return false
        }
      }
      let signaller = Task(name: "signaller") { semaphore.signal() }
      let canceller = Task(name: "canceller") { waiter.cancel() }
      _ = await signaller.value
      await canceller.value
      let holds = await waiter.value
      let free = semaphore.freePermits
      if holds && free != 0 { TraceRecorder.mark("permit doubled") }
      if !holds && free != 1 { TraceRecorder.mark("permit lost") }
    }

    /// Whether `result` broke a rule of the race: a mark, or a waiter that never woke.
    static func broke(_ result: RunResult) -> Bool {
      if case .deadlocked = result.outcome { return true }
      return result.trace.events.contains {
        if case .mark(let label) = $0.kind { label.hasPrefix("permit") } else { false }
      }
    }

    /// Ours keeps the permits at every interleaving of the search, which it exhausts.
    @available(ExecutorHooks 1.0, *)
    @Test func aCancellationRacingASignalNeverLosesOrDoublesAPermit() {
      let exploration = ControlledExecutor.explore(
        ExhaustiveSearch(delayBound: nil, budget: 5_000), outsideWorkTimeout: .zero,
        { await Self.race(AsyncSemaphore(value: 0)) }, stopWhen: Self.broke)
      #expect(
        exploration.stoppedAt == nil, "\(exploration.stoppedAt.map { "\($0.outcome) \($0.trace.events.count)" } ?? "")")
      #expect(exploration.search.isExhausted)
      #expect(exploration.search.schedulesExplored > 10)
    }

    /// The counting semaphore keeps the permits at some interleavings; at others it doubles one
    /// (the signal came first) or its waiter never wakes (cancelled before it came in line, a
    /// deadlock without a mark). The search finds all three.
    @available(ExecutorHooks 1.0, *)
    @Test func theSearchFindsTheRaceInACountingSemaphore() {
      var passing = 0
      var marks: Set<[String]> = []
      let exploration = ControlledExecutor.explore(
        ExhaustiveSearch(delayBound: nil, budget: 5_000), outsideWorkTimeout: .zero,
        { await Self.race(CountingSemaphore()) },
        stopWhen: { result in
          if Self.broke(result) {
            marks.insert(result.trace.events.compactMap { if case .mark(let label) = $0.kind { label } else { nil } })
          } else {
            passing += 1
          }
          return false
        })
      #expect(exploration.search.isExhausted)
      #expect(passing > 0, "the counting semaphore failed at every interleaving")
      #expect(marks == [["permit doubled"], []], "\(marks)")
    }
  }
#endif
