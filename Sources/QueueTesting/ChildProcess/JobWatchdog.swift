#if compiler(>=6.3) && !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
  import AsyncQueue
  import Foundation
  import QueueTestingEngine

  /// The real-time watchdog of the child process that runs a test under
  /// ``ControlledSchedulingTrait`` (see `ChildProcessIsolation`).
  ///
  /// A controlled run executes its jobs one at a time on one thread: a job that never returns
  /// (a busy loop that never awaits, a blocking wait for work of the same run) holds that thread,
  /// and nothing in the run can end it. The watchdog, a thread of its own, ends the child when
  /// one job has run longer than the limit (the test's `.timeLimit`, else
  /// ``defaultJobTimeLimit``, else `QUEUE_TESTING_JOB_TIME_LIMIT` seconds), after writing to
  /// standard error which task's job it was, at which step of which schedule, for how long, and
  /// how to run the series to that schedule again; the parent records that as the test's issue.
  /// It also ends the child when the parent is gone, so that no child outlives the test run
  /// (a killed `swift test` included), and counts a heartbeat in the file the parent named, so
  /// that the parent can tell a child that is working from one that is stopped or wedged (see
  /// `ChildMonitor`).
  enum JobWatchdog {
    /// Overrides the limit, in seconds (a decimal number).
    static let jobTimeLimitVariable = "QUEUE_TESTING_JOB_TIME_LIMIT"
    /// Set by the parent to its process id.
    static let parentVariable = "QUEUE_TESTING_PARENT"
    /// The child's exit status when the watchdog ended it over a job that did not return.
    static let stuckJobExitStatus: Int32 = 87
    /// The limit for one job when the test has no `.timeLimit` and the variable is not set.
    static let defaultJobTimeLimit = Duration.seconds(60)
    /// Marks the watchdog's report in the child's standard error.
    static let reportMarker = "QueueTesting watchdog: "

    /// The limit for one job: the test's time limit when it has one, else the variable's,
    /// else ``defaultJobTimeLimit``.
    static func jobTimeLimit(testTimeLimit: Duration?, environment: [String: String]) -> Duration {
      if let testTimeLimit { return testTimeLimit }
      if let text = environment[jobTimeLimitVariable], let seconds = Double(text), seconds > 0 {
        return .milliseconds(Int64(seconds * 1_000))
      }
      return defaultJobTimeLimit
    }

    private static let started = LockedState(false)

    /// What the watchdog reports a stuck job against: the test running now in this process (a
    /// child runs its tests one after another) and its limit for one job.
    struct Watch: Sendable {
      var limit: Duration
      var report: @Sendable (_ task: Int, _ step: Int, _ seconds: Int) -> String
    }

    private static let current = LockedState<Watch?>(nil)

    /// Starts the watchdog once per process, and makes `limit` and `report` (which turns a stuck
    /// job's task, step and seconds into the lines to write) those of the test about to run.
    @available(ExecutorHooks 1.0, *)
    static func start(
      limit: Duration, parent: Int32?, heartbeat: String?,
      report: @escaping @Sendable (_ task: Int, _ step: Int, _ seconds: Int) -> String
    ) {
      current.withLock { $0 = Watch(limit: limit, report: report) }
      guard
        started.withLock({ started in
          defer { started = true }
          return !started
        })
      else { return }
      let heartbeatFile = heartbeat.map { open($0, O_WRONLY) } ?? -1
      let thread = Thread {
        var lastJobs = -1
        var lastChange = Date()
        var beat: UInt64 = 0
        while true {
          Thread.sleep(forTimeInterval: 0.2)
          if let parent, getppid() != parent { _exit(1) }
          if heartbeatFile >= 0 {
            beat += 1
            var bytes = beat.bigEndian
            _ = withUnsafeBytes(of: &bytes) { pwrite(heartbeatFile, $0.baseAddress, 8, 0) }
          }
          guard let job = ControlledExecutor.jobInProgress, let watch = current.withLock({ $0 }) else {
            lastJobs = -1
            continue
          }
          if job.jobsStarted != lastJobs {
            lastJobs = job.jobsStarted
            lastChange = Date()
            continue
          }
          let limitSeconds =
            Double(watch.limit.components.seconds) + Double(watch.limit.components.attoseconds) / 1e18
          let running = Date().timeIntervalSince(lastChange)
          guard running >= limitSeconds else { continue }
          let report = watch.report
          let text = reportMarker + report(job.task, job.step, Int(running.rounded())) + "\n"
          FileHandle.standardError.write(Data(text.utf8))
          _exit(stuckJobExitStatus)
        }
      }
      thread.name = "QueueTesting watchdog"
      thread.start()
    }
  }
#endif
