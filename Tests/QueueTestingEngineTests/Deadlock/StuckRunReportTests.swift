#if compiler(>=6.3)
  import AsyncQueue
  import Testing

  @testable import QueueTestingEngine
  import QueueWorkloads

  /// What a stuck run says when its waits were not announced, and named throwing waits.
  @Suite("Stuck run reports", .serialized, .timeLimit(.minutes(5)), .hangGuard)
  struct StuckRunReportTests {
    /// A plain continuation nothing resumes: no announced wait, so the report lists every task
    /// with what it did last.
    @available(ExecutorHooks 1.0, *)
    @Test func anUnannouncedWaitListsEveryTaskWithItsLastEvent() throws {
      let result = ControlledExecutor.runBlocking(seed: 1, outsideWorkTimeout: .zero) {
        let worker = Task(name: "worker") {
          TraceRecorder.mark("worker about to wait")
          await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
        }
        await worker.value
      }
      guard case .deadlocked(let report) = result.outcome else {
        Issue.record("expected a deadlock, got \(result.outcome)")
        return
      }
      #expect(report.blockedTasks.isEmpty)
      #expect(report.tasks.count == 2)
      #expect(report.tasks[0].hasPrefix("task 1 (root): "))
      #expect(report.tasks[1] == "task 2 'worker': worker about to wait at step 2", "\(report.tasks)")
      #expect(report.description.contains("the run's tasks and what each did last"))
    }

    /// A throwing wait that nothing resumes is named in the report; a cancellation handler that
    /// resumes it with an error lets the run finish.
    @available(ExecutorHooks 1.0, *)
    @Test func namedThrowingWaitsAreReportedAndCanBeCancelled() throws {
      let stuck = ControlledExecutor.runBlocking(seed: 1, outsideWorkTimeout: .zero) {
        _ = try? await withNamedThrowingContinuation("download") { (_: CheckedContinuation<Int, any Error>) in }
      }
      guard case .deadlocked(let report) = stuck.outcome else {
        Issue.record("expected a deadlock, got \(stuck.outcome)")
        return
      }
      #expect(report.description.contains("waits at continuation 'download', which nothing resumes"))

      let cancelled = ControlledExecutor.runBlocking(seed: 1, outsideWorkTimeout: .zero) {
        let box = ContinuationBox()
        let download = Task {
          try await withTaskCancellationHandler {
            try await withNamedThrowingContinuation("download") { (continuation: CheckedContinuation<Int, any Error>) in
              box.store(continuation)
            }
          } onCancel: {
            box.fail(with: CancellationError())
          }
        }
        await Task.yield()
        download.cancel()
        let outcome = await download.result
        TraceRecorder.mark((try? outcome.get()) == nil ? "download failed" : "download finished")
      }
      #expect(cancelled.outcome == .completed)
      #expect(HopSchedulingTests.leavesMark(cancelled, "download failed"))
    }
  }

  /// A continuation that may be failed before or after it is stored.
  final class ContinuationBox: Sendable {
    private let state = LockedState<(continuation: CheckedContinuation<Int, any Error>?, error: (any Error)?)>(
      (nil, nil))

    func store(_ continuation: CheckedContinuation<Int, any Error>) {
      let error = state.withLock { state -> (any Error)? in
        if let error = state.error { return error }
        state.continuation = continuation
        return nil
      }
      if let error { continuation.resume(throwing: error) }
    }

    func fail(with error: any Error) {
      let continuation = state.withLock { state -> CheckedContinuation<Int, any Error>? in
        state.error = error
        defer { state.continuation = nil }
        return state.continuation
      }
      continuation?.resume(throwing: error)
    }
  }
#endif
