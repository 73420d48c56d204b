#if compiler(>=6.3)
  import AsyncQueue

  /// Waits for a part of a scenario to be over: every one of its tasks has returned, or those
  /// that have not wait for something nothing left can give.
  ///
  /// Under the harness a timer fires only when no job of the run can run, so a timer set far
  /// beyond any the type sets itself fires exactly when the run is quiescent: its tasks all
  /// finished (the wait ends sooner, on their completion) or every one still running waits. The
  /// operations those tasks are in stay pending, and the checker asks the model whether each
  /// would wait there (a lost wake-up is an operation pending where the model would not wait).
  enum Quiescence {
    /// Far past any timer a type under test sets: a year.
    static let horizon = Duration.seconds(365 * 24 * 3600)

    /// Returns once `tasks` have all finished or the run is quiescent (on real threads, where
    /// nothing says so, once `limit` has passed). What is left behind (a task waiting for ever,
    /// the watcher waiting on it) never resumes; the run ends without it.
    static func wait(for tasks: [Task<Void, Never>], limit: Duration = horizon) async {
      let latch = Latch()
      let watcher = Task {
        for task in tasks { await task.value }
        latch.open()
      }
      let timer = Task {
        try? await Task.sleep(for: limit)
        latch.open()
      }
      await latch.wait()
      timer.cancel()
      _ = watcher
    }

    /// Opens once; a wait before or after it returns once it is open.
    final class Latch: Sendable {
      private struct State {
        var isOpen = false
        var waiter: CheckedContinuation<Void, Never>?
      }
      private let state = LockedState(State())

      func open() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
          guard !state.isOpen else { return nil }
          state.isOpen = true
          defer { state.waiter = nil }
          return state.waiter
        }
        waiter?.resume()
      }

      func wait() async {
        await withCheckedContinuation { continuation in
          let resumeNow = state.withLock { state in
            if state.isOpen { return true }
            state.waiter = continuation
            return false
          }
          if resumeNow { continuation.resume() }
        }
      }
    }
  }
#endif
