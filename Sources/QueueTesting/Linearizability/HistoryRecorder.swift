#if compiler(>=6.3)
  import AsyncQueue

  /// Records what the operations of one run of a scenario did, on one counter: each operation
  /// takes a number when it is invoked and another when it returns, so that "returned before
  /// the other was invoked" is a comparison of two numbers.
  ///
  /// Taking a number is a lock, not an `await`: recording adds no scheduling point, so the run
  /// the harness controls is the type's own.
  final class HistoryRecorder<Operation: Sendable, Result: Equatable & Sendable>: Sendable {
    private struct State {
      var clock = 0
      var records: [OperationHistory<Operation, Result>.Record] = []
    }
    private let state = LockedState(State())

    /// Calls `body` as `operation` of `task` and records its invocation, and its response once it
    /// returns or throws (never, if it never does: it stays pending).
    func record(task: Int, _ operation: Operation, _ body: () async throws -> Result) async {
      // The call and the return as marks in the run's trace, among its hops and awaits, so that
      // a failure's attached trace and picture show where each operation began and ended.
      TraceRecorder.mark("\(operation) ▶")
      let index = state.withLock { state in
        state.records.append(
          .init(task: task, operation: operation, outcome: nil, invocation: state.clock, response: nil))
        state.clock += 1
        return state.records.count - 1
      }
      let outcome: OperationOutcome<Result>
      do {
        outcome = .returned(try await body())
      } catch {
        outcome = .threw(ThrownError(error))
      }
      state.withLock { state in
        state.records[index].outcome = outcome
        state.records[index].response = state.clock
        state.clock += 1
      }
      TraceRecorder.mark("◀ \(outcome)")
    }

    /// What was recorded so far.
    var history: OperationHistory<Operation, Result> {
      state.withLock { OperationHistory($0.records) }
    }
  }
#endif
