#if compiler(>=6.3)
  import Testing

  @testable import QueueTestingEngine
  import QueueWorkloads

  /// A run's mailbox decides, for jobs enqueued on threads other than the driver, whether they are
  /// the run's, and the driver's abandoned tasks which of the rest are dropped; pure values, so
  /// every decision is checked directly.
  @Suite("Run mailbox", .timeLimit(.minutes(5)), .hangGuard)
  struct RunMailboxTests {
    @available(ExecutorHooks 1.0, *)
    static func job(_ number: Int) -> UnownedJob { StandInJob.make(number) }

    /// The mailbox of a run that owns `taskIDs`.
    @available(ExecutorHooks 1.0, *)
    static func running(owning taskIDs: [UInt64]) -> RunMailbox {
      var mailbox = RunMailbox()
      mailbox.own(taskIDs)
      return mailbox
    }

    @available(ExecutorHooks 1.0, *)
    static func ids(_ deliveries: [RunMailbox.Delivery]) -> [UInt64] { ids(deliveries.map(\.captured)) }

    @available(ExecutorHooks 1.0, *)
    static func ids(_ jobs: [RunState.CapturedJob]) -> [UInt64] { jobs.map(\.taskID) }

    @Test("A run that owns no task yet is delivered nothing")
    @available(ExecutorHooks 1.0, *)
    func newRunDeliversNothing() {
      var mailbox = RunMailbox()
      let delivered1 = mailbox.capture(Self.job(1), taskID: 7, source: .global)
      #expect(!delivered1)
      let delivered2 = mailbox.capture(Self.job(2), taskID: 0, source: .main)
      #expect(!delivered2)
      #expect(!mailbox.hasDeliveries)
    }

    @Test("Jobs of the run's tasks are delivered in order; others are forwarded")
    @available(ExecutorHooks 1.0, *)
    func ownedTasksAreDelivered() {
      var mailbox = Self.running(owning: [7, 9])
      let delivered3 = mailbox.capture(Self.job(1), taskID: 7, source: .global)
      #expect(delivered3)
      let delivered4 = mailbox.capture(Self.job(2), taskID: 8, source: .global)
      #expect(!delivered4)
      let delivered5 = mailbox.capture(Self.job(3), taskID: 0, source: .global)
      #expect(!delivered5)
      let delivered6 = mailbox.capture(Self.job(4), taskID: 9, source: .timer(delay: 5))
      #expect(delivered6)
      #expect(mailbox.hasDeliveries)
      let collected = mailbox.collect()
      #expect(Self.ids(collected) == [7, 9])
      #expect(collected.map(\.captured.source) == [.global, .timer(delay: 5)])
      #expect(!mailbox.hasDeliveries)
      #expect(mailbox.collect().isEmpty)
    }

    @Test("A delivery answers the oldest expected outside wake-up")
    @available(ExecutorHooks 1.0, *)
    func deliveriesAnswerExpectedWakeUps() {
      var mailbox = Self.running(owning: [7])
      mailbox.expectOutsideWakeUp("first")
      mailbox.expectOutsideWakeUp("second")
      #expect(mailbox.expectedOutsideWakeUps == ["first", "second"])
      _ = mailbox.capture(Self.job(1), taskID: 7, source: .global)
      #expect(mailbox.expectedOutsideWakeUps == ["second"])
      _ = mailbox.capture(Self.job(2), taskID: 8, source: .global)
      #expect(mailbox.expectedOutsideWakeUps == ["second"], "a forwarded job answers nothing")
    }

    @Test("An abandoned run's tasks have their later jobs dropped, also in later runs")
    @available(ExecutorHooks 1.0, *)
    func abandonedTasksAreDropped() {
      var mailbox = Self.running(owning: [7])
      _ = mailbox.capture(Self.job(1), taskID: 7, source: .global)
      let (leftovers, abandoned) = mailbox.end(completed: false)
      #expect(leftovers.isEmpty, "an abandoned run's deliveries are never run")
      #expect(abandoned == [7])
      var abandonedTasks = AbandonedTasks()
      abandonedTasks.abandon(abandoned)
      #expect(abandonedTasks.drops(taskID: 7))
      #expect(!abandonedTasks.drops(taskID: 8), "a task of no run is forwarded")
      #expect(!abandonedTasks.drops(taskID: 0))
      // A later run owns task 8: its jobs are delivered, and task 7's are not the run's.
      var later = Self.running(owning: [8])
      let delivered7 = later.capture(Self.job(4), taskID: 7, source: .global)
      #expect(!delivered7)
      #expect(abandonedTasks.drops(taskID: 7))
      let delivered8 = later.capture(Self.job(5), taskID: 8, source: .global)
      #expect(delivered8)
    }

    @Test("What the run's own code enqueues while it runs outside the harness becomes the run's, with where it ran")
    @available(ExecutorHooks 1.0, *)
    func runCodeRunningOutsideBringsItsWorkIn() {
      var mailbox = Self.running(owning: [7])
      // Task 7 runs on a custom executor and creates task 20 there, then starts an actor's drain.
      let created = mailbox.capture(
        Self.job(1), taskID: 20, source: .global, enqueuingTaskID: 7, executor: { "QueueExecutor" })
      let drain = mailbox.capture(
        Self.job(2), taskID: 0, source: .global, enqueuingTaskID: 7, executor: { "QueueExecutor" })
      // Task 20 now belongs to the run, wherever its jobs come from.
      let later = mailbox.capture(Self.job(3), taskID: 20, source: .global)
      // Another test's code (task 30) creating task 31 is not the run's.
      let other = mailbox.capture(Self.job(4), taskID: 31, source: .global, enqueuingTaskID: 30, executor: { "Other" })
      #expect([created, drain, later, other] == [true, true, true, false])
      let collected = mailbox.collect()
      #expect(Self.ids(collected) == [20, 0, 20])
      #expect(
        collected.map(\.executor) == ["QueueExecutor", "QueueExecutor", OutsideWork.threadsOutsideSwiftConcurrency])
    }

    @Test("The root finishing on another thread is news for the driver, once; a task not the run's is ignored")
    @available(ExecutorHooks 1.0, *)
    func rootFinishingOutside() {
      var mailbox = Self.running(owning: [7])
      let notTheRuns = mailbox.rootFinished(byTask: 8, executor: "X")
      #expect(!notTheRuns)
      #expect(!mailbox.hasNews)
      let theRoot = mailbox.rootFinished(byTask: 7, executor: "QueueTaskExecutor")
      #expect(theRoot)
      #expect(mailbox.hasNews)
      #expect(mailbox.rootFinishedOutside == "QueueTaskExecutor")
      mailbox.clearRootFinishedOutside()
      #expect(!mailbox.hasNews)
    }

    @Test("A completed run hands back what was delivered after its last step, abandons nothing, and owns nothing after")
    @available(ExecutorHooks 1.0, *)
    func completedRunHandsBackDeliveries() {
      var mailbox = Self.running(owning: [7])
      _ = mailbox.capture(Self.job(1), taskID: 7, source: .main)
      let (leftovers, abandoned) = mailbox.end(completed: true)
      #expect(Self.ids(leftovers) == [7])
      #expect(abandoned.isEmpty)
      let delivered9 = mailbox.capture(Self.job(2), taskID: 7, source: .global)
      #expect(!delivered9, "ownership ends with the run")
    }

    @Test("Jobs that overstay are the run's until each returns, once; the run has left one job at a time")
    @available(ExecutorHooks 1.0, *)
    func overstayingJobsUntilTheyReturn() {
      var mailbox = Self.running(owning: [7])
      #expect(!mailbox.leftOneJobAtATime)
      let first = OverstayingJob(task: 1, step: 4, isMain: true, thread: 11, kernelThread: 0)
      let second = OverstayingJob(task: 2, step: 9, isMain: false, thread: 12, kernelThread: 0)
      mailbox.jobOverstays(first)
      mailbox.jobOverstays(second)
      #expect(mailbox.leftOneJobAtATime)
      #expect(mailbox.overstayingJobs.map(\.task) == [1, 2])
      #expect(mailbox.hasOverstayingJob(onThread: 12))
      #expect(!mailbox.hasOverstayingJob(onThread: 13))
      #expect(!mailbox.hasNews, "a job overstaying is no news until it returns")
      let other = mailbox.overstayingJobReturned(onThread: 13)
      #expect(other == nil, "no job of the run overstays on that thread")
      let returned = mailbox.overstayingJobReturned(onThread: 12)
      #expect(returned?.task == 2)
      #expect(mailbox.hasNews)
      let again = mailbox.overstayingJobReturned(onThread: 12)
      #expect(again == nil, "a job returns once")
      #expect(mailbox.overstayingJobs.map(\.task) == [1])
      #expect(mailbox.takeOverstayingJobsReturned() == [false])
      #expect(mailbox.leftOneJobAtATime, "a run that left one job at a time stays so")
    }
  }
#endif
