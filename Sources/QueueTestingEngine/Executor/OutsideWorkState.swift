#if compiler(>=6.3)
  /// What a run knows of work outside the harness (jobs that came back from Dispatch, custom
  /// executors and threads), and when it waits for such work: a sub-state of ``RunState``, made
  /// anew for each run.
  ///
  /// It decides two waits, each in real time:
  /// - before virtual time jumps to a timer (Go's `testing/synctest` rule: time moves only when
  ///   everything is durably blocked), while work handed out has not run, once work came back, or
  ///   once the run woke a thread that existed before it: the whole jump, so that from then on
  ///   the run's clock is paced by real time and never overtakes what those threads may still do
  ///   (an event loop's own idle timer, say);
  /// - before a run with nothing runnable is called a deadlock, at most ``timeout``, unless the
  ///   announced waits form a cycle or the runtime said a continuation was dropped (no outside
  ///   hand ends either).
  struct OutsideWorkState {
    /// How long the run waits, in real time, for work outside the harness when nothing it
    /// controls can run (see ``ControlledExecutor/defaultOutsideWorkTimeout``); zero: never.
    let timeout: Duration
    /// What came from outside the harness so far.
    private(set) var work = OutsideWork()
    /// The jobs admitted from outside, in order: the schedule records them.
    private(set) var admissions: [Schedule.Admission] = []
    /// Set when the driver waited for outside work since the last job ran and none came: how
    /// long it waited. The next decision then moves virtual time on or ends the run.
    var waitSpent: Duration?
    /// What the runtime reported about continuations the run's code dropped without resuming
    /// them (see ``DeadlockReport/leakedContinuations``), set by the driver when it has any.
    var leakedContinuations: [String] = []
    /// The real time since virtual time last moved, set by the driver before each decision with
    /// nothing runnable: a paced jump waits only for what real time has not covered yet.
    var realSinceJump: Duration = .zero

    /// A run's state that waits up to `timeout`.
    init(timeout: Duration = .zero) {
      self.timeout = timeout
    }

    /// Records a job of `task` (run-local id) that came back from `executor` and was admitted
    /// at `step`; whatever the run waited for has come.
    mutating func admitted(task: Int, step: Int, from executor: String) {
      admissions.append(Schedule.Admission(task: task, step: step))
      work.note(job: true, executor: executor)
      waitSpent = nil
    }

    /// Records that the root task finished outside the harness, on `executor`.
    mutating func rootFinished(on executor: String) {
      work.note(job: false, executor: executor)
    }

    /// Notes that a job ran: a later wait is a new one.
    @inline(__always)
    mutating func jobRan() {
      if waitSpent != nil { waitSpent = nil }
    }

    /// How long to wait before virtual time jumps `delay` nanoseconds ahead, and whether the wait
    /// ends as soon as the work handed out has run (nil: jump now). `pending`: work the run handed
    /// to Dispatch or threads it started are still out; `threadsWoken`: the run woke a thread it
    /// did not start, which never says it is done. The wait is what is left of the jump once the
    /// real time since virtual time last moved (``realSinceJump``) is taken off, not capped by
    /// ``timeout``: virtual time is paced by real time, since a thread outside the run may have a
    /// timer of its own due before the jump ends (a server's 3-second idle timeout under a
    /// client's 15-second one), and on real threads it fires first. A zero ``timeout`` turns the
    /// wait off.
    /// `jobsElsewhere`: a job of the run that overstayed its slice still runs on a thread of its
    /// own: the jump waits for it even when ``timeout`` is zero (it is the run's own code, not work
    /// the run may give up on), and nothing tells when it is done either.
    func waitBeforeJump(
      of delay: UInt64, pending: Bool, threadsWoken: Bool, jobsElsewhere: Bool = false
    ) -> (Duration, whilePending: Bool)? {
      guard pending || threadsWoken || jobsElsewhere || !work.isEmpty, waitSpent == nil,
        timeout > .zero || jobsElsewhere
      else { return nil }
      let left = .nanoseconds(Int64(clamping: delay)) - realSinceJump
      guard left > .zero else { return nil }
      return (left, work.isEmpty && !threadsWoken && !jobsElsewhere)
    }

    /// How long to wait, with nothing runnable and the body unfinished, before calling the run a
    /// deadlock (nil: it is one now). `waitCycle` is read only when it could matter.
    func waitBeforeDeadlock(waitCycle: @autoclosure () -> Bool) -> Duration? {
      guard waitSpent == nil, timeout > .zero, leakedContinuations.isEmpty, !waitCycle() else { return nil }
      return timeout
    }
  }
#endif
