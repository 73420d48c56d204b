#if compiler(>=6.3)
  import AsyncQueue
  @testable import QueueTesting
  @testable import QueueTestingEngine
  import Synchronization
  import QueueWorkloads
  import Testing

  /// A request whose continuation is stored through an actor hop, answered by a responder that
  /// drops requests it sees cancelled.
  ///
  /// The bug (`forgetsCancellation`): `store` resumes a continuation that arrives after the
  /// answer, but not one that arrives after the cancellation. If the request is cancelled while
  /// its continuation is on the way to the actor, the cancellation finds nothing to resume, the
  /// responder drops the request, and the continuation is stored for good: the request never
  /// returns. A request cancelled before it starts returns at once, so the test's own
  /// cancellation points (before the request starts, after it returned) never show the bug.
  actor RequestRegistry {
    private var continuation: CheckedContinuation<Void, Never>?
    private var answered = false
    private var cancelled = false
    /// How many times a cancellation ended a waiting request (for the tests' coverage checks).
    private(set) var cancellationsThatEndedAWait = 0
    let forgetsCancellation: Bool

    init(forgetsCancellation: Bool) {
      self.forgetsCancellation = forgetsCancellation
    }

    func store(_ continuation: CheckedContinuation<Void, Never>) {
      if answered || (cancelled && !forgetsCancellation) {
        if cancelled { cancellationsThatEndedAWait += 1 }
        continuation.resume()
      } else {
        self.continuation = continuation
      }
    }

    func answer() {
      guard !cancelled else { return }  // a cancelled request is dropped
      answered = true
      continuation?.resume()
      continuation = nil
    }

    func cancel() {
      cancelled = true
      if let continuation {
        cancellationsThatEndedAWait += 1
        continuation.resume()
        self.continuation = nil
      }
    }

    /// Waits for the answer or the cancellation.
    nonisolated func request() async {
      guard !Task.isCancelled else { return }
      await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          Task { await self.store(continuation) }
        }
      } onCancel: {
        Task { await self.cancel() }
      }
    }

    /// The test body: a request named "download", and a responder.
    static func run(forgetsCancellation: Bool, cancelAtStart: Bool = false) async -> RequestRegistry {
      let registry = RequestRegistry(forgetsCancellation: forgetsCancellation)
      let download = Task(name: "download") { await registry.request() }
      if cancelAtStart { download.cancel() }
      let responder = Task { await registry.answer() }
      await download.value
      await responder.value
      return registry
    }
  }

  /// A gate a task waits at until it opens or is cancelled; one that does not check for a
  /// cancellation that came before the wait waits for ever after it.
  actor CancellableGate {
    private var continuation: CheckedContinuation<Void, Never>?
    private var cancelled = false
    private var opened = false
    let checksCancellation: Bool

    init(checksCancellation: Bool) {
      self.checksCancellation = checksCancellation
    }

    func wait() async {
      await withCheckedContinuation { continuation in
        if opened || (checksCancellation && cancelled) {
          continuation.resume()
        } else {
          self.continuation = continuation
        }
      }
    }

    func cancel() {
      cancelled = true
      continuation?.resume()
      continuation = nil
    }

    func open() {
      guard !cancelled else { return }
      opened = true
      continuation?.resume()
      continuation = nil
    }
  }

  /// A worker that holds a lease while it works, and the bug that loses it: cancelled while it
  /// works, it leaves without giving the lease back (`skipsCleanup`). Cancelled before it took
  /// the lease, or after it gave it back, it is fine, so cancelling at the test's own points
  /// never shows the bug.
  actor LeasePool {
    private(set) var leased = 0
    private(set) var cancelledWhileWorking = 0

    func take() { leased += 1 }
    func giveBack() { leased -= 1 }
    func noteCancelledWhileWorking() { cancelledWhileWorking += 1 }

    nonisolated func work(skipsCleanup: Bool) async {
      guard !Task.isCancelled else { return }
      await take()
      do {
        try await Task.sleep(for: .seconds(1))
      } catch {
        await noteCancelledWhileWorking()
        if skipsCleanup { return }
      }
      await giveBack()
    }

    /// The test body: a worker the root starts, then the check that no lease is left.
    static func run(skipsCleanup: Bool, cancelAtStart: Bool = false) async -> LeasePool {
      let pool = LeasePool()
      let worker = Task { await pool.work(skipsCleanup: skipsCleanup) }
      if cancelAtStart { worker.cancel() }
      await worker.value
      #expect(await pool.leased == 0, "a lease was not given back")
      return pool
    }
  }

  @Suite("Cancellation as a schedule choice", .timeLimit(.minutes(5)), .hangGuard)
  struct CancellationChoiceTests {
    @available(ExecutorHooks 1.0, *)
    static func requestSeries(
      forgetsCancellation: Bool, cancelling: CancellationTargets?, cancelAtStart: Bool = false
    ) -> (report: ControlledScheduling.Report, cancellationsThatEndedAWait: Int) {
      let ended = Mutex(0)
      let report = ControlledScheduling(.portfolio(100, seed: 1), cancelling: cancelling).runSeries(
        {
          let registry = await RequestRegistry.run(
            forgetsCancellation: forgetsCancellation, cancelAtStart: cancelAtStart)
          let count = await registry.cancellationsThatEndedAWait
          ended.withLock { $0 += count }
        }, failureCount: nil)
      return (report, ended.withLock { $0 })
    }

    /// The continuation stored after the cancellation handler ran: with the download as a
    /// cancellation target, a schedule cancels it while its continuation is on the way, and the
    /// run deadlocks; the report names the cancellation, and the schedule replays it.
    @available(ExecutorHooks 1.0, *)
    @Test func aCancellationChoiceFindsTheForgottenContinuation() throws {
      let (report, _) = Self.requestSeries(forgetsCancellation: true, cancelling: .named("download"))
      let failure = try #require(report.failure)
      guard case .deadlocked = failure.problem else {
        Issue.record("expected a deadlock, got \(failure.problem)")
        return
      }
      let cancellation = try #require(failure.run.cancellations.first)
      #expect(failure.run.trace.label(ofTask: cancellation.task).hasSuffix("'download'"))
      let message = failure.message(testID: "M.S/request()")
      #expect(
        message.contains(
          "Cancelled by the schedule: \(failure.run.trace.label(ofTask: cancellation.task)) cancelled at step \(cancellation.step)"
        ), "\(message)")
      #expect(message.contains("+c\(cancellation.task)@\(cancellation.step)"), "\(message)")
      let text = failure.run.schedule.description
      let replay = ControlledScheduling(.replay(try Schedule(parsing: text)), cancelling: .named("download"))
        .runSeries({ _ = await RequestRegistry.run(forgetsCancellation: true) }, failureCount: nil)
      #expect(replay.failure?.run.trace.hash == failure.run.trace.hash)
      #expect(replay.failure?.run.cancellations == failure.run.cancellations)
    }

    /// The registry's request in a task named "waiter" that hops to an actor first: targeted as a
    /// child of the root, the failure names it ('waiter', learned at its hop), not just its number.
    @available(ExecutorHooks 1.0, *)
    @Test func aCancelledChildIsNamedWhenItHasAName() throws {
      // The window is narrow (see `waiterBehindAnActorHop`): a long series, stopped by the failure.
      let report = ControlledScheduling(
        .portfolio(1000, seed: 3), cancelling: .childrenOfRoot, outsideWorkTimeout: .zero
      )
      .runSeries(Self.waiterBehindADoor(forgetsCancellation: true), failureCount: nil)
      let failure = try #require(report.failure)
      let message = failure.message()
      #expect(message.contains("'waiter' cancelled at step"), "\(message)")
    }

    /// A request in a task named "waiter" that visits another actor first, and a responder.
    static func waiterBehindADoor(forgetsCancellation: Bool) -> @Sendable () async -> Void {
      {
        let registry = RequestRegistry(forgetsCancellation: forgetsCancellation)
        let door = CountingActor()
        let waiter = Task(name: "waiter") {
          await door.incrementAndCheck(1)
          await registry.request()
        }
        let responder = Task { await registry.answer() }
        await waiter.value
        await responder.value
      }
    }

    /// The series reached the waiter, and failed as the deadlock a forgotten cancellation leaves,
    /// naming the waiter's cancellation.
    static func expectDeadlockAfterCancellingTheWaiter(
      _ report: ControlledScheduling.Report, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
      #expect(
        report.unreachedCancellationTargets.isEmpty, "\(report.unreachedCancellationTargets)",
        sourceLocation: sourceLocation)
      let failure = try #require(report.failure, sourceLocation: sourceLocation)
      guard case .deadlocked = failure.problem else {
        Issue.record("expected a deadlock, got \(failure.problem)", sourceLocation: sourceLocation)
        return
      }
      #expect(
        failure.message().contains("'waiter' cancelled at step"), "\(failure.message())",
        sourceLocation: sourceLocation)
    }

    /// A task named "waiter" that hops to an actor, then asks the registry to store its
    /// continuation, targeted by name: the task shows its name when it creates the task that
    /// stores the continuation, so it becomes cancellable while that continuation is on the way.
    /// The window is narrow (about one schedule in 150 on every strategy), so the series is
    /// long; on this seed the deadlock is found within a few schedules.
    @available(ExecutorHooks 1.0, *)
    static func waiterBehindAnActorHop(forgetsCancellation: Bool) -> ControlledScheduling.Report {
      ControlledScheduling(.portfolio(1000, seed: 3), cancelling: .named("waiter"), outsideWorkTimeout: .zero)
        .runSeries(
          Self.waiterBehindADoor(forgetsCancellation: forgetsCancellation), failureCount: nil)
    }

    @available(ExecutorHooks 1.0, *)
    @Test func aNamedTargetBehindAnActorHopIsCancelledInItsWindow() throws {
      let report = Self.waiterBehindAnActorHop(forgetsCancellation: true)
      try Self.expectDeadlockAfterCancellingTheWaiter(report)
      // The fixed registry passes the whole series.
      let fixed = Self.waiterBehindAnActorHop(forgetsCancellation: false)
      #expect(fixed.failure == nil)
      #expect(fixed.schedulesRun == 1000)
      #expect(fixed.unreachedCancellationTargets.isEmpty)
    }

    /// The table's shape: a task named "waiter" hops straight onto an actor and registers its
    /// continuation there; its cancellation handler asks the actor to cancel through a task of
    /// its own. On real threads that task can reach the actor before the waiter does, and a gate
    /// that forgets a cancellation which came first then waits for ever. The waiter shows its
    /// name at its hop, and its arrival on the actor is a job of its own, so a schedule can cancel
    /// it between the two and run the cancelling task first.
    @available(ExecutorHooks 1.0, *)
    static func waiterHoppingStraightOntoAGate(
      checksCancellation: Bool, model: RuntimeModel = .faithful
    ) -> ControlledScheduling.Report {
      var scheduling = ControlledScheduling(
        .portfolio(200, seed: 1), cancelling: .named("waiter"), outsideWorkTimeout: .zero)
      scheduling.runtimeModel = model
      return scheduling.runSeries(
        {
          let gate = CancellableGate(checksCancellation: checksCancellation)
          let waiter = Task(name: "waiter") {
            await withTaskCancellationHandler {
              await gate.wait()
            } onCancel: {
              Task { await gate.cancel() }
            }
          }
          let opener = Task { await gate.open() }
          await waiter.value
          await opener.value
        }, failureCount: nil)
    }

    @available(ExecutorHooks 1.0, *)
    @Test func aNamedTargetThatHopsStraightOntoAnActorIsCancelledBeforeItArrives() throws {
      let report = Self.waiterHoppingStraightOntoAGate(checksCancellation: false)
      try Self.expectDeadlockAfterCancellingTheWaiter(report)
      let fixed = Self.waiterHoppingStraightOntoAGate(checksCancellation: true)
      #expect(fixed.failure == nil)
      #expect(fixed.unreachedCancellationTargets.isEmpty)
    }

    /// The mutation check: with tasks joining an actor's queue at the hop, the waiter shows its
    /// name nowhere the harness looks, and the series says the target was never reached.
    @available(ExecutorHooks 1.0, *)
    @Test func withArrivalsAtTheHopTheWaiterIsNeverReached() {
      let report = Self.waiterHoppingStraightOntoAGate(
        checksCancellation: false, model: .faithful { $0.hops = .arrivalsAtTheHop })
      #expect(report.failure == nil)
      #expect(report.unreachedCancellationTargets.first?.contains("no task named 'waiter'") == true)
    }

    /// A task whose name the runtime never shows the harness (it suspends on a plain
    /// continuation before any scheduling point, and is resumed from the root) cannot be
    /// targeted by name; the series says so instead of passing in silence. So does a misspelt
    /// name. A name the run does learn is not reported.
    @available(ExecutorHooks 1.0, *)
    @Test func targetsThatNeverBecomeCancellableAreReported() {
      let quietBody: @Sendable () async -> Void = {
        let parked = LockedState<CheckedContinuation<Void, Never>?>(nil)
        let quiet = Task(name: "quiet") {
          await withCheckedContinuation { continuation in parked.withLock { $0 = continuation } }
        }
        while parked.withLock({ $0 }) == nil { await Task.yield() }
        parked.withLock { $0?.resume() }
        await quiet.value
      }
      let quiet = ControlledScheduling(.random(20, seed: 1), cancelling: .named("quiet"), outsideWorkTimeout: .zero)
        .runSeries(quietBody, failureCount: nil)
      #expect(quiet.failure == nil)
      #expect(quiet.unreachedCancellationTargets.count == 1)
      #expect(quiet.unreachedCancellationTargets.first?.contains("no task named 'quiet'") == true)

      let misspelt = ControlledScheduling(
        .random(20, seed: 1), cancelling: .named("dowload"), outsideWorkTimeout: .zero
      )
      .runSeries({ _ = await RequestRegistry.run(forgetsCancellation: false) }, failureCount: nil)
      #expect(misspelt.unreachedCancellationTargets.first?.contains("'dowload'") == true)
      let spelt = ControlledScheduling(.random(20, seed: 1), cancelling: .named("download"), outsideWorkTimeout: .zero)
        .runSeries({ _ = await RequestRegistry.run(forgetsCancellation: false) }, failureCount: nil)
      #expect(spelt.unreachedCancellationTargets.isEmpty)

      let noChildren = ControlledScheduling(.random(5, seed: 1), cancelling: .childrenOfRoot, outsideWorkTimeout: .zero)
        .runSeries({ await Task.yield() }, failureCount: nil)
      #expect(
        noChildren.unreachedCancellationTargets == [
          "the root task created no child task that ran, so none was cancelled"
        ])
    }

    /// The fixed version passes the same series, and cancellations did land while the download
    /// waited (so the series did reach the window); the buggy version passes when the test
    /// cancels at its own points (at the start) or not at all.
    @available(ExecutorHooks 1.0, *)
    @Test func theFixedRequestPassesAndFixedCancellationPointsMissTheBug() {
      let fixed = Self.requestSeries(forgetsCancellation: false, cancelling: .named("download"))
      #expect(fixed.report.failure == nil)
      #expect(fixed.report.schedulesRun == 100)
      #expect(fixed.cancellationsThatEndedAWait > 0)
      #expect(Self.requestSeries(forgetsCancellation: true, cancelling: nil).report.failure == nil)
      #expect(Self.requestSeries(forgetsCancellation: true, cancelling: nil, cancelAtStart: true).report.failure == nil)
    }

    /// Runs the lease body under 100 portfolio schedules; the issues it records are captured
    /// (returned, not recorded in this test).
    @available(ExecutorHooks 1.0, *)
    static func leaseSeries(
      skipsCleanup: Bool, cancelling: CancellationTargets?, cancelAtStart: Bool = false
    ) async throws -> (report: ControlledScheduling.Report?, issues: [Issue], cancelledWhileWorking: Int) {
      let cancelledWhileWorking = Mutex(0)
      let report = LockedState<ControlledScheduling.Report?>(nil)
      let scheduling = ControlledScheduling(.portfolio(100, seed: 2), cancelling: cancelling)
      let issues = try await capturingIssues {
        let result = await scheduling.run {
          let pool = await LeasePool.run(skipsCleanup: skipsCleanup, cancelAtStart: cancelAtStart)
          let count = await pool.cancelledWhileWorking
          cancelledWhileWorking.withLock { $0 += count }
        }
        report.withLock { $0 = result }
      }
      return (report.withLock { $0 }, issues, cancelledWhileWorking.withLock { $0 })
    }

    /// The cleanup a cancelled worker skips: with the root's children as cancellation targets,
    /// a schedule cancels the worker while it holds its lease and the expectation fails.
    @available(ExecutorHooks 1.0, *)
    @Test func aCancellationChoiceFindsTheSkippedCleanup() async throws {
      let (report, issues, _) = try await Self.leaseSeries(skipsCleanup: true, cancelling: .childrenOfRoot)
      let failure = try #require(report?.failure)
      #expect(failure.problem == .failuresRecorded(1))
      #expect(issues.isEmpty)
      #expect(failure.failureMarks.first?.text.contains("a lease was not given back") == true)
      let cancellation = try #require(failure.run.cancellations.first)
      #expect(cancellation.task == 2)
      #expect(failure.message().contains("Cancelled by the schedule: task 2 cancelled at step \(cancellation.step)"))
    }

    /// The fixed worker passes, with cancellations that landed while it worked; the buggy one
    /// passes when the test cancels it at its own point (at the start) or not at all.
    @available(ExecutorHooks 1.0, *)
    @Test func theFixedWorkerPassesAndFixedCancellationPointsMissTheBug() async throws {
      let fixed = try await Self.leaseSeries(skipsCleanup: false, cancelling: .childrenOfRoot)
      #expect(fixed.report?.failure == nil && fixed.issues.isEmpty)
      #expect(fixed.report?.schedulesRun == 100)
      #expect(fixed.cancelledWhileWorking > 0)
      let uncancelled = try await Self.leaseSeries(skipsCleanup: true, cancelling: nil)
      #expect(uncancelled.report?.failure == nil && uncancelled.issues.isEmpty)
      let cancelledAtStart = try await Self.leaseSeries(skipsCleanup: true, cancelling: nil, cancelAtStart: true)
      #expect(cancelledAtStart.report?.failure == nil && cancelledAtStart.issues.isEmpty)
    }

    @Test func anExhaustiveSeriesRefusesCancellationTargets() {
      let scheduling = ControlledScheduling(.exhaustive(delayBound: 1), cancelling: .childrenOfRoot)
      #expect(throws: ControlledSchedulingError.self) { try scheduling.resolved(environment: [:]) }
      #expect(
        (try? ControlledScheduling(.portfolio(), cancelling: .childrenOfRoot).resolved(environment: [:])) != nil)
    }

    @Test func targetsDescribeThemselves() {
      #expect(CancellationTargets.childrenOfRoot.description == "the root's children")
      #expect(CancellationTargets.named("upload", "download").description == "tasks named 'download', 'upload'")
    }
  }

  /// The trait with cancellation choices, as a user writes it: the fixed request passes.
  @Suite("Cancellation choices under the trait", .timeLimit(.minutes(5)), .hangGuard)
  struct CancellationChoiceTraitTests {
    @Test(.controlledScheduling(.portfolio(50, seed: 3), cancelling: .named("download")))
    func fixedRequestPassesWithCancellationChoices() async {
      _ = await RequestRegistry.run(forgetsCancellation: false)
    }
  }
#endif
