#if compiler(>=6.3)
  import Testing

  @testable import QueueTestingEngine
  import QueueWorkloads

  /// The mailbox decides, for jobs enqueued on threads other than the driver, whether they are
  /// the run's; a pure value, so every decision is checked directly.
  @Suite("Run mailbox", .timeLimit(.minutes(5)), .hangGuard)
  struct RunMailboxTests {
    @available(ExecutorHooks 1.0, *)
    static func job(_ number: Int) -> UnownedJob { StandInJob.make(number) }

    /// A mailbox of an active run that owns `taskIDs`.
    @available(ExecutorHooks 1.0, *)
    static func running(owning taskIDs: [UInt64]) -> RunMailbox {
      var mailbox = RunMailbox()
      mailbox.begin()
      mailbox.own(taskIDs)
      return mailbox
    }

    @available(ExecutorHooks 1.0, *)
    static func ids(_ deliveries: [RunMailbox.Delivery]) -> [UInt64] { ids(deliveries.map(\.captured)) }

    @available(ExecutorHooks 1.0, *)
    static func ids(_ jobs: [RunState.CapturedJob]) -> [UInt64] { jobs.map(\.taskID) }

    @Test("Outside a run every job is forwarded")
    @available(ExecutorHooks 1.0, *)
    func inactiveForwards() {
      var mailbox = RunMailbox()
      #expect(mailbox.capture(Self.job(1), taskID: 7, source: .global) == .forward)
      #expect(mailbox.capture(Self.job(2), taskID: 0, source: .main) == .forward)
      #expect(!mailbox.hasDeliveries)
    }

    @Test("Jobs of the run's tasks are delivered in order; others are forwarded")
    @available(ExecutorHooks 1.0, *)
    func ownedTasksAreDelivered() {
      var mailbox = Self.running(owning: [7, 9])
      #expect(mailbox.capture(Self.job(1), taskID: 7, source: .global) == .delivered)
      #expect(mailbox.capture(Self.job(2), taskID: 8, source: .global) == .forward)
      #expect(mailbox.capture(Self.job(3), taskID: 0, source: .global) == .forward)
      #expect(mailbox.capture(Self.job(4), taskID: 9, source: .timer(delay: 5)) == .delivered)
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
      #expect(mailbox.end(completed: false).isEmpty, "an abandoned run's deliveries are never run")
      #expect(!mailbox.isActive)
      #expect(mailbox.capture(Self.job(2), taskID: 7, source: .global) == .drop)
      #expect(mailbox.capture(Self.job(3), taskID: 8, source: .global) == .forward)
      mailbox.begin()
      mailbox.own([8])
      #expect(mailbox.capture(Self.job(4), taskID: 7, source: .global) == .drop)
      #expect(mailbox.capture(Self.job(5), taskID: 8, source: .global) == .delivered)
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
      #expect([created, drain, later, other] == [.delivered, .delivered, .delivered, .forward])
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

    @Test("A completed run hands back what was delivered after its last step, and owns nothing after")
    @available(ExecutorHooks 1.0, *)
    func completedRunHandsBackDeliveries() {
      var mailbox = Self.running(owning: [7])
      _ = mailbox.capture(Self.job(1), taskID: 7, source: .main)
      #expect(Self.ids(mailbox.end(completed: true)) == [7])
      #expect(mailbox.capture(Self.job(2), taskID: 7, source: .global) == .forward)
      mailbox.begin()
      #expect(mailbox.capture(Self.job(3), taskID: 7, source: .global) == .forward, "ownership ends with the run")
    }
  }
#endif
