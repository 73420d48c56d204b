#if compiler(>=6.3)
  @_spi(Strategies) @testable import QueueTestingEngine
  import QueueWorkloads
  import Testing

  /// The pure parts a run's state is made of: timers, the main actor's backlog, the task
  /// registry, the cancellation targets and the outside work, each tested on its own.
  @Suite("Run sub-states", .timeLimit(.minutes(5)), .hangGuard)
  struct RunSubStateTests {
    @available(ExecutorHooks 1.0, *)
    static func job(_ number: Int, task: Int = 1, source: Trace.Event.Source = .timer) -> HeldJob {
      HeldJob(job: StandInJob.make(number), task: task, source: source)
    }

    @available(ExecutorHooks 1.0, *)
    static func numbers(_ jobs: [HeldJob]) -> [Int] { jobs.map { StandInJob.number(of: $0.job) } }

    /// Against a plain list: timers fire earliest deadline first, and timers due together in the
    /// order they were set, over random delays (many of them equal).
    @available(ExecutorHooks 1.0, *)
    @Test(arguments: 0..<20)
    func timersFireByDeadlineThenInTheOrderSet(seed: UInt64) {
      var dice = SplitMix64(seed: seed)
      var timers = TimerQueue()
      var model: [(deadline: UInt64, number: Int)] = []
      var now: UInt64 = 0
      var number = 0
      for _ in 0..<300 {
        if dice.next() % 3 != 0 || model.isEmpty {
          number += 1
          let delay = (dice.next() % 5) * TimerQueue.quantum
          timers.set(Self.job(number), measured: delay, now: now)
          model.append((TimerQueue.deadline(after: delay, from: now), number))
        } else {
          let earliest = model.map(\.deadline).min()!
          #expect(timers.earliestDeadline == earliest)
          let due = timers.takeDue(at: earliest)
          #expect(Self.numbers(due) == model.filter { $0.deadline == earliest }.map(\.number))
          model.removeAll { $0.deadline == earliest }
          now = earliest
        }
      }
      #expect(Self.numbers(timers.removeAll()) == model.map(\.number))
      #expect(timers.isEmpty)
      #expect(timers.delays.count == number)
    }

    @available(ExecutorHooks 1.0, *)
    @Test func timersTakeReplayedDelaysThenMeasureAndNeverFirePastTheEnd() {
      var timers = TimerQueue(replayedDelays: [30, nil])
      timers.set(Self.job(1), measured: 5, now: 0)
      timers.set(Self.job(2), measured: 5, now: 0)
      timers.set(Self.job(3), measured: 1_500_000, now: 0)
      timers.set(Self.job(4), measured: .max, now: 0)
      #expect(timers.delays == [30, nil, 2, nil])
      #expect(timers.neverFiring == 2)
      #expect(timers.earliestDeadline == 2_000_000)
      #expect(Self.numbers(timers.takeDue(at: 2_000_000)) == [3])
      #expect(Self.numbers(timers.takeDue(at: 30_000_000)) == [1])
      #expect(timers.earliestDeadline == TimerQueue.never)
    }

    /// Only the oldest main-actor job is runnable; each that runs makes the next one runnable.
    @available(ExecutorHooks 1.0, *)
    @Test func theMainActorsJobsBecomeRunnableOneAtATimeInOrder() {
      var backlog = MainActorBacklog()
      #expect(backlog.arrive(Self.job(1, source: .main)).map { StandInJob.number(of: $0.job) } == 1)
      #expect(backlog.arrive(Self.job(2, source: .main)) == nil)
      #expect(backlog.arrive(Self.job(3, source: .main)) == nil)
      #expect(Self.numbers(Array(backlog.waiting)) == [2, 3])
      #expect(backlog.ranRunnable().map { StandInJob.number(of: $0.job) } == 2)
      #expect(backlog.ranRunnable().map { StandInJob.number(of: $0.job) } == 3)
      #expect(backlog.ranRunnable() == nil)
      // Nothing runnable now: the next arrival is.
      #expect(backlog.arrive(Self.job(4, source: .main)).map { StandInJob.number(of: $0.job) } == 4)
    }

    /// Run-local ids are 1, 2, … in order of first sight, the first task is the root, and the
    /// cache in front of the table never mixes up two tasks that share a slot.
    @available(ExecutorHooks 1.0, *)
    @Test func tasksAreNumberedInOrderOfFirstSight() {
      var tasks = TaskRegistry()
      #expect(tasks.localID(of: 0) == 0)
      let runtimeIDs: [UInt64] = [100, 164, 228, 101, 100, 164]
      #expect(runtimeIDs.map { tasks.localID(of: $0) } == [1, 2, 3, 4, 1, 2])
      #expect(tasks.rootTaskID == 100)
      #expect(tasks.count == 4)
      #expect(tasks.newTasks == [100, 164, 228, 101])
      #expect(tasks.knownID(of: 228) == 3 && tasks.knownID(of: 5) == nil)
      #expect(tasks.prospectiveLocalID(of: 5) == 5)
      tasks.noteHopsAreChoices(of: 1)
      tasks.noteHopsAreChoices(of: 3)
      #expect(tasks.tasksWithInlineHops == [2, 4])
    }

    /// A target becomes cancellable once the run knows the task, once; the strategy's pick is
    /// recorded; the reached targets say which names and whether a child of the root was reached.
    @available(ExecutorHooks 1.0, *)
    @Test func cancellationTargetsBecomeCancellableOnceKnown() {
      var state = CancellationState(targets: CancellationTargets(includesChildrenOfRoot: true, names: ["waiter"]))
      #expect(state.targets(name: "waiter") && !state.targets(name: "other"))
      let handle = Task<Void, Never> {}
      state.note(500, handle: handle, name: "waiter")
      state.note(600, handle: handle, name: nil)
      var names: [Int: String] = [:]
      var always = AlwaysCancelFirst()
      // Task 500 is not known yet: only 600 (run-local 2) is cancellable.
      let known: [UInt64: Int] = [600: 2]
      let first = state.choose(strategy: &always, step: 3, localID: { known[$0] }, names: &names)
      #expect(first?.task == 2)
      let later: [UInt64: Int] = [600: 2, 500: 4]
      let second = state.choose(strategy: &always, step: 5, localID: { later[$0] }, names: &names)
      #expect(second?.task == 4)
      #expect(names == [4: "waiter"])
      #expect(state.made == [.init(task: 2, step: 3), .init(task: 4, step: 5)])
      #expect(state.reached == CancellationTargets(includesChildrenOfRoot: true, names: ["waiter"]))
      #expect(state.choose(strategy: &always, step: 6, localID: { later[$0] }, names: &names) == nil)
    }
  }

  /// Cancels the first eligible task at every step.
  struct AlwaysCancelFirst: ScheduleStrategy {
    func choose(runnableCount: Int) -> Int { 0 }
    func cancellation(afterStep step: Int, eligibleTasks: [Int]) -> Int? { eligibleTasks.first }

    /// Virtual time waits for outside work only while some is out or has come back, for what is
    /// left of the jump once the real time since virtual time last moved is taken off (paced by
    /// real time, whatever the timeout), and only once until a job runs; a wait for work handed
    /// out ends when it has run, a woken thread's does not.
    @available(ExecutorHooks 1.0, *)
    @Test func outsideWorkHoldsAJumpOnlyWhileThereIsSome() throws {
      let second: UInt64 = 1_000_000_000
      var outside = OutsideWorkState(timeout: .seconds(2))
      // Pure virtual time: no wait.
      #expect(outside.waitBeforeJump(of: 5 * second, pending: false, threadsWoken: false) == nil)
      // Work handed out: the jump's delay, ended early once the work has run.
      let pending = try #require(outside.waitBeforeJump(of: second / 2, pending: true, threadsWoken: false))
      #expect(pending.0 == .milliseconds(500) && pending.whilePending)
      // A woken thread never says it is done: the whole delay, longer than the timeout.
      let woken = try #require(outside.waitBeforeJump(of: 5 * second, pending: false, threadsWoken: true))
      #expect(woken.0 == .seconds(5) && !woken.whilePending)
      // Real time that passed since virtual time last moved is not waited again.
      outside.realSinceJump = .seconds(3)
      let paced = try #require(outside.waitBeforeJump(of: 5 * second, pending: false, threadsWoken: true))
      #expect(paced.0 == .seconds(2))
      #expect(outside.waitBeforeJump(of: 2 * second, pending: false, threadsWoken: true) == nil)
      outside.realSinceJump = .zero
      // Once work came back, every jump waits, and the admission is recorded.
      outside.admitted(task: 3, step: 7, from: "QueueExecutor")
      #expect(outside.admissions == [Schedule.Admission(task: 3, step: 7)])
      #expect(outside.work.jobs == 1 && outside.work.executors == ["QueueExecutor"])
      #expect(outside.waitBeforeJump(of: second, pending: false, threadsWoken: false)?.whilePending == false)
      // A wait spent holds no second one until a job runs.
      outside.waitSpent = .seconds(1)
      #expect(outside.waitBeforeJump(of: second, pending: true, threadsWoken: true) == nil)
      outside.jobRan()
      #expect(outside.waitSpent == nil)
      #expect(outside.waitBeforeJump(of: second, pending: true, threadsWoken: false) != nil)
      // A timeout of zero never waits.
      let never = OutsideWorkState(timeout: .zero)
      #expect(never.waitBeforeJump(of: second, pending: true, threadsWoken: true) == nil)
    }

    /// Before a deadlock is called, the run waits out the timeout, unless no outside hand could
    /// end it: a wait-for cycle, a continuation the runtime says was dropped, a wait already spent.
    @available(ExecutorHooks 1.0, *)
    @Test func outsideWorkHoldsADeadlockUnlessNoOutsideHandCouldEndIt() {
      var outside = OutsideWorkState(timeout: .seconds(2))
      #expect(outside.waitBeforeDeadlock(waitCycle: false) == .seconds(2))
      #expect(outside.waitBeforeDeadlock(waitCycle: true) == nil)
      outside.waitSpent = .seconds(2)
      #expect(outside.waitBeforeDeadlock(waitCycle: false) == nil)
      outside.jobRan()
      outside.leakedContinuations = ["SWIFT TASK CONTINUATION MISUSE"]
      #expect(outside.waitBeforeDeadlock(waitCycle: false) == nil)
      #expect(OutsideWorkState(timeout: .zero).waitBeforeDeadlock(waitCycle: false) == nil)
    }
  }
#endif
