#if compiler(>=6.3)
  /// The main actor's jobs of a run that wait behind its runnable one.
  ///
  /// The main actor's executor is a serial queue (the platform's main Dispatch queue): it runs
  /// its jobs in the order they were enqueued, whatever their priority (a job's priority raises
  /// the queue's, it never overtakes an earlier job). So the strategy chooses *when* the main
  /// actor runs next, never which of its jobs: only the oldest is runnable, and the next one
  /// becomes runnable when it has run. Made anew for each run.
  @available(ExecutorHooks 1.0, *)
  struct MainActorBacklog {
    /// Jobs behind the runnable one, oldest first, from `start` on.
    private var jobs: [HeldJob] = []
    private var start = 0
    /// Whether a main-actor job is runnable (in the run's ready queue).
    private var oneIsRunnable = false

    /// Takes a main-actor job just held: returns it if it is runnable now (no other is), else
    /// keeps it behind the runnable one.
    mutating func arrive(_ job: HeldJob) -> HeldJob? {
      if oneIsRunnable {
        jobs.append(job)
        return nil
      }
      oneIsRunnable = true
      return job
    }

    /// The runnable main-actor job ran: returns the next one, now runnable, if any.
    mutating func ranRunnable() -> HeldJob? {
      guard start < jobs.count else {
        oneIsRunnable = false
        return nil
      }
      let next = jobs[start]
      start += 1
      if start == jobs.count {
        jobs.removeAll(keepingCapacity: true)
        start = 0
      }
      return next
    }

    /// The main-actor job that last ran goes on beside the run (it overstayed its slice): the main
    /// actor is taken until it returns (``ranRunnable()`` then), and `madeRunnable`, the job made
    /// runnable when it was chosen, if any, waits again, first in line.
    mutating func occupy(puttingBack madeRunnable: HeldJob?) {
      if let madeRunnable {
        if start > 0 {
          start -= 1
          jobs[start] = madeRunnable
        } else {
          jobs.insert(madeRunnable, at: 0)
        }
      }
      oneIsRunnable = true
    }

    /// The jobs behind the runnable one, oldest first.
    var waiting: ArraySlice<HeldJob> { jobs[start...] }
  }
#endif
