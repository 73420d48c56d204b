#if compiler(>=6.3)
  @_spi(Strategies) @testable import QueueTestingEngine
  import QueueWorkloads
  import Testing

  /// A schedule's text form with its cancellations, admissions and timer delays, and the
  /// strategies that make and replay cancellation choices: pure values, tested on their own.
  @Suite("Schedules and cancellation strategies", .timeLimit(.minutes(5)), .hangGuard)
  struct ScheduleTextAndCancellationTests {
    @Test func scheduleTextCarriesCancellations() throws {
      let schedule = Schedule(
        choices: [0, 2, 35], cancellations: [.init(task: 3, step: 17), .init(task: 12, step: 40)])
      #expect(schedule.description == "s1:0.2.z+c3@17+c12@40")
      #expect(try Schedule(parsing: schedule.description) == schedule)
      #expect(try Schedule(parsing: "s1:+c2@0") == Schedule(choices: [], cancellations: [.init(task: 2, step: 0)]))
      #expect(try Schedule(parsing: "s1:0.1") == Schedule(choices: [0, 1]))
      #expect(throws: ScheduleParseError.self) { try Schedule(parsing: "s1:0+x3@17") }
      do {
        _ = try Schedule(parsing: "s1:0+c3")
        Issue.record("a cancellation without a step parsed")
      } catch {
        #expect(
          error.message
            == "part 1 after the choices: expected 'c<task>@<step>' (a cancellation, e.g. 'c3@17'), "
            + "'o<task>@<step>' (work admitted from outside, e.g. 'o2@5') or 't<ms>.<ms>…' (timer delays), "
            + "in decimal, found 'c3'")
      }
    }

    @Test func schedulesCarryAdmissionsOfOutsideWork() throws {
      let schedule = Schedule(
        choices: [1, 0], cancellations: [.init(task: 3, step: 4)],
        admissions: [.init(task: 2, step: 5), .init(task: 4, step: 9)])
      #expect(schedule.description == "s1:1.0+c3@4+o2@5+o4@9")
      #expect(try Schedule(parsing: schedule.description) == schedule)
      #expect(
        try Schedule(parsing: "s1:0.1") == Schedule(choices: [0, 1]), "a schedule without admissions reads as before")
      #expect(ReplayStrategy(schedule).replayedAdmissions == schedule.admissions)
      #expect(SeededRandomStrategy(seed: 1).replayedAdmissions == nil)
      #expect(throws: ScheduleParseError.self) { try Schedule(parsing: "s1:0+o0@5") }
    }

    @Test func schedulesCarryTimerDelays() throws {
      let schedule = Schedule(choices: [1], cancellations: [.init(task: 2, step: 3)], timerDelays: [30, nil, 1000])
      #expect(schedule.description == "s1:1+c2@3+t30.n.1000")
      #expect(try Schedule(parsing: schedule.description) == schedule)
      #expect(ReplayStrategy(schedule).replayedTimerDelays == [30, nil, 1000])
      do {
        _ = try Schedule(parsing: "s1:1+t30.x")
        Issue.record("a timer delay that is not a number parsed")
      } catch {
        #expect(error.message == "timer 2: expected a delay in whole milliseconds, or 'n' for never, found 'x'")
      }
    }

    @Test func replayCancelsAtTheRecordedStepsOnlyWhatIsEligible() {
      var replay = ReplayStrategy(
        Schedule(
          choices: [], cancellations: [.init(task: 2, step: 3), .init(task: 4, step: 3), .init(task: 5, step: 6)]))
      #expect(replay.cancellation(afterStep: 2, eligibleTasks: [2, 4]) == nil)
      #expect(replay.cancellation(afterStep: 3, eligibleTasks: [2, 4]) == 2)
      #expect(replay.cancellation(afterStep: 3, eligibleTasks: [4]) == 4)
      #expect(replay.cancellation(afterStep: 3, eligibleTasks: []) == nil)
      // Task 5 is not eligible at step 6 (an edited schedule): skipped, not made later.
      #expect(replay.cancellation(afterStep: 6, eligibleTasks: [7]) == nil)
      #expect(replay.cancellation(afterStep: 7, eligibleTasks: [5]) == nil)
    }

    @Test func cancellingStrategyLeavesJobChoicesAloneAndRepeats() {
      var plain = SeededRandomStrategy(seed: 9)
      var first = CancellingStrategy(SeededRandomStrategy(seed: 9), seed: 9, expectedSteps: 10)
      var second = CancellingStrategy(SeededRandomStrategy(seed: 9), seed: 9, expectedSteps: 10)
      var firstCancellations: [Int?] = []
      var secondCancellations: [Int?] = []
      for step in 0..<200 {
        let expected = plain.choose(runnableCount: 5)
        #expect(first.choose(runnableCount: 5) == expected)
        #expect(second.choose(runnableCount: 5) == expected)
        firstCancellations.append(first.cancellation(afterStep: step, eligibleTasks: [2, 3]))
        secondCancellations.append(second.cancellation(afterStep: step, eligibleTasks: [2, 3]))
        // At most one roll per step.
        #expect(first.cancellation(afterStep: step, eligibleTasks: [2, 3]) == nil)
      }
      #expect(firstCancellations == secondCancellations)
      // Two eligible tasks out of ten expected steps: about 40 of 200 steps.
      let made = firstCancellations.compactMap { $0 }
      #expect((20...60).contains(made.count), "\(made.count) cancellations")
      #expect(Set(made) == [2, 3])
    }
  }
#endif
