/// What a controlled run (or a series of them) did outside the harness's control.
///
/// The harness runs every job that reaches Swift's global and main executors on its driver
/// thread, in an order its strategy chooses. Code can also run elsewhere: on an actor whose
/// `unownedExecutor` is a custom `SerialExecutor` (a Dispatch queue, say), under a
/// `withTaskExecutorPreference` of its own, or in a completion handler that a Dispatch queue,
/// Foundation or NIO calls on a thread of its own and that resumes a continuation. That code
/// runs on real threads, at real speed, beside the run. What it hands back to the run (a task
/// leaving the custom executor, a resumed continuation) is admitted as a job at a step the
/// run's ``Schedule`` records, so that a replay admits it at the same step.
///
/// A run with outside work is reported as such: its timing is real, so the same seed may give
/// another interleaving in another process (the recorded schedule replays it), and an
/// exhaustive search never claims to have exhausted a space that contains it.
public struct OutsideWork: Equatable, Sendable, CustomStringConvertible {
  /// Jobs that came back to the run from threads the harness does not own.
  public var jobs = 0
  /// Other signs of the run's code running outside (its root task finishing there), counted.
  public var events = 0
  /// Where that work ran, by type name (`QueueExecutor`), sorted; "threads outside Swift
  /// concurrency" stands for Dispatch, Foundation or system callbacks.
  public var executors: [String] = []
  /// Work items the run's code handed to Dispatch queues (`DispatchQueue.async`, `asyncAfter`,
  /// a group's `notify`), which ran on Dispatch's threads beside the run, whether or not
  /// anything came back from them. Counted where the test binary's own Dispatch entry points
  /// are the ones called (Linux).
  public var handedToDispatch = 0
  /// Threads the run's code started (a `Thread`, an event loop's threads), which ran beside the
  /// run. Counted where the test binary's own `pthread_create` is the one called (Linux).
  public var threadsStarted = 0
  /// Times the run's code woke a thread it did not start (signalled a condition, posted a
  /// semaphore, wrote an event loop's eventfd, wrote to a pipe or a socket): an event loop or a
  /// worker made before the run, whose work ran beside it. Counted where the test binary's own
  /// definitions of those calls are the ones called (Linux).
  public var threadsWoken = 0
  /// Runs that left one-job-at-a-time because a job had not returned after its slice (see
  /// ``RunResult/leftOneJobAtATimeAtStep``): that job went on on its thread, in real time, beside
  /// the run's other jobs, which the harness went on choosing one at a time; what the job made
  /// came back as work from outside (on "a job that overstayed its slice").
  public var runsThatLeftOneJobAtATime = 0
  /// The step at which the first such run left one-job-at-a-time.
  public var leftOneJobAtATimeAtStep: Int?

  /// No work outside.
  public init() {}

  /// Whether the run did nothing outside the harness.
  public var isEmpty: Bool {
    jobs == 0 && events == 0 && handedToDispatch == 0 && threadsStarted == 0 && threadsWoken == 0
      && runsThatLeftOneJobAtATime == 0
  }

  /// Adds what another run did outside.
  public mutating func merge(_ other: OutsideWork) {
    jobs += other.jobs
    events += other.events
    handedToDispatch += other.handedToDispatch
    threadsStarted += other.threadsStarted
    threadsWoken += other.threadsWoken
    if runsThatLeftOneJobAtATime == 0 { leftOneJobAtATimeAtStep = other.leftOneJobAtATimeAtStep }
    runsThatLeftOneJobAtATime += other.runsThatLeftOneJobAtATime
    executors = Array(Set(executors).union(other.executors)).sorted()
  }

  /// Notes one job or event from `executor`.
  mutating func note(job: Bool, executor: String) {
    if job { jobs += 1 } else { events += 1 }
    if !executors.contains(executor) {
      executors.append(executor)
      executors.sort()
    }
  }

  /// The name used for work that no Swift executor ran: a callback on a Dispatch queue or a
  /// thread of its own.
  public static let threadsOutsideSwiftConcurrency = "threads outside Swift concurrency"

  /// The name used for the jobs and events of a job that overstayed its slice, as the run went on
  /// beside it.
  public static let overstayingJob = "a job that overstayed its slice"

  /// `3 job(s) came back from work that ran outside the harness (on QueueExecutor)`.
  public var description: String {
    let place = executors.isEmpty ? "" : " (on \(executors.joined(separator: ", ")))"
    var parts: [String] = []
    if jobs > 0 { parts.append("\(jobs) job(s) came back from work that ran outside the harness\(place)") }
    if events > 0 && jobs == 0 { parts.append("code ran outside the harness\(place)") }
    if handedToDispatch > 0 { parts.append("\(handedToDispatch) work item(s) ran on Dispatch queues beside the run") }
    if threadsStarted > 0 { parts.append("\(threadsStarted) thread(s) it started ran beside the run") }
    if threadsWoken > 0 { parts.append("it woke threads outside the harness \(threadsWoken) time(s)") }
    if let step = leftOneJobAtATimeAtStep {
      let runs = runsThatLeftOneJobAtATime == 1 ? "the run" : "\(runsThatLeftOneJobAtATime) runs (the first"
      let close = runsThatLeftOneJobAtATime == 1 ? "" : ")"
      parts.append(
        "\(runs) left one-job-at-a-time at step \(step)\(close): a job there had not returned after its slice, "
          + "so it went on on its own thread, in real time, while the run's other jobs went on beside it, chosen "
          + "one at a time as before, and a replay of the schedule is exact only up to that step")
    }
    return parts.isEmpty ? "no work ran outside the harness" : parts.joined(separator: "; ")
  }
}
