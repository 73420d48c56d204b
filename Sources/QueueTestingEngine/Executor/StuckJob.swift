#if compiler(>=6.3)
  import Foundation

  /// A job of a controlled run that did not return within the job limit, and what its thread was
  /// waiting in: the outcome ``RunResult/Outcome/stuck(_:)``.
  ///
  /// A controlled run executes its jobs one at a time on one thread. A job that blocks that
  /// thread until another job of the run does something (a `DispatchSemaphore` another task
  /// signals, a lock held across an `await`, a loop that spins until another task sets a flag)
  /// can never go on there; on real threads it may wait for another thread of the cooperative
  /// pool, and deadlock the pool when every pool thread waits so. The harness leaves that thread
  /// behind and reports the job instead of hanging: the report says which task and step, and what
  /// the thread was blocked in when the harness looked.
  public struct StuckJob: Equatable, Sendable, CustomStringConvertible {
    /// The run-local id of the job's task (0: a job of no task, an actor's drain).
    public var task: Int
    /// The step at which the job started.
    public var step: Int
    /// The limit it ran past.
    public var limit: Duration
    /// What the thread was blocked in, if the harness could name it; nil when it found no known
    /// blocking call on the thread's stack (a loop that never suspends, or a wait it does not know).
    public var wait: BlockingWait?
    /// Whether the job belongs to an earlier run, still running, rather than this one: no run can
    /// start in the process until it returns.
    public var ofEarlierRun: Bool
    /// Whether the run had gone on beside the job (it overstayed the run's job slice; see
    /// ``RunResult/leftOneJobAtATimeAtStep``) and then no other job of the run started within the
    /// limit either: a deadlock of blocked threads, or a wait for something that never happens.
    public var runWentOnBesideIt: Bool
    /// Creates a report.
    public init(
      task: Int, step: Int, limit: Duration, wait: BlockingWait?, ofEarlierRun: Bool = false,
      runWentOnBesideIt: Bool = false
    ) {
      self.task = task
      self.step = step
      self.limit = limit
      self.wait = wait
      self.ofEarlierRun = ofEarlierRun
      self.runWentOnBesideIt = runWentOnBesideIt
    }

    /// The report for a person: the job, its step, the limit, the wait, and why it cannot go on.
    public var description: String {
      let who = task == 0 ? "a job of no task (an actor's drain)" : "task \(task)'s job"
      let what =
        wait.map { "blocked in \($0)" }
        ?? "with no known blocking call on its thread (a loop that never suspends, or a wait QueueTesting does not know)"
      let whose = ofEarlierRun ? "an earlier controlled run's " : ""
      let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
      if runWentOnBesideIt {
        return """
          \(whose)\(who) started at step \(step) did not return within \(seconds.formatted()) s, \(what), \
          and no other job of the run started in that time: the run went on beside the job once it \
          overstayed its slice, and nothing of it moved (a deadlock of blocked threads, or a wait for \
          something that never happens). The job's thread was left behind; no controlled run can \
          start in this process until it returns.
          """
      }
      return """
        \(whose)\(who) started at step \(step) did not return within \(seconds.formatted()) s, \(what). \
        A controlled run without a job slice runs one job at a time: a job that blocks its thread \
        until another job of the run acts can never go on (on real threads such waits can deadlock \
        the cooperative pool). The job's thread was left behind; no controlled run can start in \
        this process until it returns.
        """
    }
  }

  /// A blocking call a stuck job's thread was found in.
  public struct BlockingWait: Equatable, Sendable, CustomStringConvertible {
    /// What the call is, as code calls it: `DispatchSemaphore.wait()`, `a lock`, `sleep`, ...
    public var name: String
    /// The function found on the thread's stack (`dispatch_semaphore_wait`).
    public var symbol: String

    /// Creates a description.
    public init(name: String, symbol: String) {
      self.name = name
      self.symbol = symbol
    }

    /// The call and the function it was found by: `DispatchSemaphore.wait() (_dispatch_semaphore_wait_slow)`.
    public var description: String { "\(name) (\(symbol))" }

    /// How a known blocking call shows on a stack: a C function's exact name, or a part of a
    /// Swift function's mangled name.
    enum Pattern {
      case exactly(String)
      case containing(String)

      func matches(_ symbol: String) -> Bool {
        switch self {
        case .exactly(let name): symbol == name
        case .containing(let part): symbol.contains(part)
        }
      }
    }

    /// Known blocking calls, most telling first: a semaphore's wait is made of a futex wait too,
    /// and the semaphore is the one to name. Dispatch's exported functions reach their slow paths
    /// by tail calls, so the internal functions are what a stack shows.
    static let known: [(pattern: Pattern, name: String)] = [
      (.exactly("_dispatch_semaphore_wait_slow"), "DispatchSemaphore.wait()"),
      (.exactly("dispatch_semaphore_wait"), "DispatchSemaphore.wait()"),
      (.exactly("_dispatch_group_wait_slow"), "DispatchGroup.wait()"),
      (.exactly("dispatch_group_wait"), "DispatchGroup.wait()"),
      (.exactly("__DISPATCH_WAIT_FOR_QUEUE__"), "DispatchQueue.sync"),
      (.exactly("_dispatch_sync_f_slow"), "DispatchQueue.sync"),
      (.exactly("dispatch_sync"), "DispatchQueue.sync"),
      (.containing("Foundation11NSConditionC4wait"), "NSCondition.wait()"),
      (.containing("Foundation16NSConditionLockC"), "NSConditionLock"),
      (.containing("Foundation15NSRecursiveLockC4lock"), "NSRecursiveLock.lock()"),
      (.containing("Foundation6NSLockC4lock"), "NSLock.lock()"),
      (.containing("Foundation6ThreadC5sleep"), "Thread.sleep"),
      (.exactly("pthread_cond_wait"), "a condition wait (pthread_cond_wait)"),
      (.exactly("pthread_cond_timedwait"), "a condition wait (pthread_cond_timedwait)"),
      (.exactly("pthread_mutex_lock"), "a lock (pthread_mutex_lock)"),
      (.exactly("pthread_rwlock_rdlock"), "a read-write lock"),
      (.exactly("pthread_rwlock_wrlock"), "a read-write lock"),
      (.exactly("pthread_join"), "a thread join (pthread_join)"),
      (.exactly("sem_wait"), "a semaphore (sem_wait)"),
      (.exactly("usleep"), "a sleep (usleep)"),
      (.exactly("sleep"), "a sleep (sleep)"),
    ]

    /// The most telling known blocking call among `symbols` (a stack's function names), if any.
    static func naming(_ symbols: [String]) -> BlockingWait? {
      for known in known {
        if let symbol = symbols.first(where: known.pattern.matches) {
          return BlockingWait(name: known.name, symbol: symbol)
        }
      }
      return nil
    }

    /// What a thread blocked in a system call waits in, by the call's number (Linux), when its
    /// stack names nothing known: a lock of the Synchronization module, say, is a futex wait
    /// made from the caller's own code.
    static func naming(systemCall: Int) -> BlockingWait? {
      #if os(Linux) && arch(x86_64)
        let calls: [Int: (String, String)] = [
          202: ("a futex wait (a lock, condition or semaphore)", "futex"), 35: ("a sleep", "nanosleep"),
          230: ("a sleep", "clock_nanosleep"), 7: ("an I/O wait", "poll"), 271: ("an I/O wait", "ppoll"),
          232: ("an I/O wait", "epoll_wait"), 281: ("an I/O wait", "epoll_pwait"), 0: ("an I/O wait", "read"),
          45: ("an I/O wait", "recvfrom"), 43: ("an I/O wait", "accept"), 23: ("an I/O wait", "select"),
          270: ("an I/O wait", "pselect6"), 61: ("a wait for a child process", "wait4"),
        ]
      #elseif os(Linux) && arch(arm64)
        let calls: [Int: (String, String)] = [
          98: ("a futex wait (a lock, condition or semaphore)", "futex"), 101: ("a sleep", "nanosleep"),
          115: ("a sleep", "clock_nanosleep"), 73: ("an I/O wait", "ppoll"), 22: ("an I/O wait", "epoll_pwait"),
          63: ("an I/O wait", "read"), 207: ("an I/O wait", "recvfrom"), 202: ("an I/O wait", "accept"),
          72: ("an I/O wait", "pselect6"), 260: ("a wait for a child process", "wait4"),
        ]
      #else
        let calls: [Int: (String, String)] = [:]
      #endif
      return calls[systemCall].map { BlockingWait(name: $0.0, symbol: $0.1) }
    }

    /// What the thread `thread` (a `pthread_t` of this process, kernel id `kernelThread`) is
    /// blocked in now, if the harness can tell (on Linux: see `ThreadStack.c`).
    static func of(thread: UInt, kernelThread: Int) -> BlockingWait? {
      if let named = naming(stackSymbols(of: thread)) { return named }
      return systemCall(ofKernelThread: kernelThread).flatMap { naming(systemCall: $0) }
    }

    /// The system call the thread is blocked in (`/proc/self/task/ID/syscall`), nil when it runs.
    static func systemCall(ofKernelThread kernelThread: Int) -> Int? {
      guard kernelThread > 0,
        let text = try? String(contentsOfFile: "/proc/self/task/\(kernelThread)/syscall", encoding: .utf8),
        let first = text.split(separator: " ").first
      else { return nil }
      return Int(first)
    }

    /// The function names on `thread`'s stack, innermost first.
    static func stackSymbols(of thread: UInt) -> [String] {
      ThreadProbe.stackSymbols(of: thread, capacity: 64, timeoutMilliseconds: 500)
    }
  }
#endif
