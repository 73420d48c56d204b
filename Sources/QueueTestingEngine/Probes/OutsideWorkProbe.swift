internal import CQueueTestingRuntime

/// Work a run hands outside the harness (to Dispatch queues, to threads it starts or wakes),
/// counted until it is done, so that virtual time waits for it as real time would (see
/// `OutsideWorkCounts.c` and its sources). A new source of outside work is a C file of
/// interpositions that counts through `OutsideWorkCounts.h`, and its counts here.
enum OutsideWorkProbe {
  /// What a run handed out, as the run's result reports it.
  struct Counts {
    var handedToDispatch = 0
    var threadsStarted = 0
    var threadsWoken = 0
  }

  /// Whether the calls that hand work out reach the harness's definitions in this process
  /// (Linux, not under the thread sanitizer).
  static var isCounted: Bool { qt_outside_work_is_counted() }

  /// Starts a new count on the calling thread, the run's first; `done` is called from the
  /// thread that finished a piece of counted work. With `counting` false, the run counts nothing.
  static func start(counting: Bool, done: @convention(c) () -> Void) {
    qt_count_outside_work(counting, done)
  }

  /// Stops counting on the calling thread, and stops telling anyone.
  static func stop() {
    qt_count_outside_work(false, nil)
  }

  /// Counts (or stops counting) the calling thread's hand-overs for the run already counted: a
  /// thread that takes over driving the run.
  static func countOnThisThread(_ on: Bool) {
    qt_count_outside_work_on_this_thread(on)
  }

  /// Whether counted work is not done yet.
  @inline(__always)
  static var isPending: Bool { qt_outstanding_outside_work() > 0 }

  /// Whether the run woke a thread outside the harness.
  @inline(__always)
  static var wokeThreads: Bool { qt_threads_woken_by_run() > 0 }

  /// The run's counts so far.
  static var counts: Counts {
    Counts(
      handedToDispatch: qt_dispatch_work_handed_out(), threadsStarted: qt_threads_started_by_run(),
      threadsWoken: qt_threads_woken_by_run())
  }
}
