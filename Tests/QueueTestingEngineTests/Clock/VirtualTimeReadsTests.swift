#if compiler(>=6.3)
  import CQueueTestingRuntime
  import Dispatch
  import Foundation
  import Synchronization
  import Testing

  @testable import QueueTestingEngine
  import QueueWorkloads

  /// Time read by a run's jobs follows its virtual time: a sleep measures at least what it slept
  /// with every clock code reads, and a deadline a job hands to Dispatch still fires when the job
  /// meant, though Dispatch reads real time. Without this, a body that sleeps 100 ms measured
  /// about 0.1 ms, and a tracing span around a sleep lasted nothing.
  @Suite(
    "Clock reads follow virtual time",
    .enabled(
      if: ControlledExecutor.clockReadsFollowVirtualTime,
      "the test binary's clock calls reach the harness (not under the thread sanitizer)"),
    .serialized, .timeLimit(.minutes(5)), .hangGuard)
  struct VirtualTimeReadsTests {
    /// The clocks a body reads, each measuring the same sleep.
    enum ReadClock: String, CaseIterable, Sendable {
      case continuous = "ContinuousClock"
      case suspending = "SuspendingClock"
      case date = "Date()"
      case dispatchTime = "DispatchTime.now()"
      case wallTime = "time()"

      /// Nanoseconds `sleep` took, as this clock tells it.
      func measure(_ sleep: () async throws -> Void) async rethrows -> Int64 {
        switch self {
        case .continuous:
          let start = ContinuousClock.now
          try await sleep()
          return Self.nanoseconds(start.duration(to: .now))
        case .suspending:
          let start = SuspendingClock.now
          try await sleep()
          return Self.nanoseconds(start.duration(to: .now))
        case .date:
          let start = Date()
          try await sleep()
          return Int64(Date().timeIntervalSince(start) * 1e9)
        case .dispatchTime:
          let start = DispatchTime.now().uptimeNanoseconds
          try await sleep()
          return Int64(DispatchTime.now().uptimeNanoseconds) - Int64(start)
        case .wallTime:
          // Whole seconds only: measures a sleep of seconds.
          let start = time(nil)
          try await sleep()
          return Int64(time(nil) - start) * 1_000_000_000
        }
      }

      static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
      }
    }

    static let series: [ScheduleSeries] = [
      .random(20, seed: 1), .pct(20, depth: 2, seed: 1), .exhaustive(delayBound: nil, budget: 20),
    ]

    /// The body: two tasks, each measuring its own sleep; the marks carry what they measured.
    static func sleepers(_ clock: ReadClock, sleep: Duration) -> @Sendable () async -> Void {
      {
        async let first = try? clock.measure { try await Task.sleep(for: sleep) }
        async let second = try? clock.measure { try await Task.sleep(for: sleep / 2) }
        let (long, short) = await (first ?? -1, second ?? -1)
        TraceRecorder.mark("long \(long)")
        TraceRecorder.mark("short \(short)")
      }
    }

    static func measured(_ result: RunResult) -> [String: Int64] {
      var found: [String: Int64] = [:]
      for event in result.trace.events {
        guard case .mark(let text) = event.kind else { continue }
        let parts = text.split(separator: " ")
        if parts.count == 2, let value = Int64(parts[1]) { found[String(parts[0])] = value }
      }
      return found
    }

    @Test(arguments: ReadClock.allCases.filter { $0 != .wallTime })
    @available(ExecutorHooks 1.0, *)
    func aSleepOf100MillisecondsMeasuresAtLeastThat(_ clock: ReadClock) throws {
      for series in Self.series {
        var number = 0
        series.runSchedules { strategy in
          number += 1
          let result = ControlledExecutor.runBlocking(
            strategy: strategy, Self.sleepers(clock, sleep: .milliseconds(100)))
          let measured = Self.measured(result)
          #expect(result.outcome == .completed)
          #expect((measured["long"] ?? 0) >= 100_000_000, "\(series), schedule \(number): \(measured)")
          #expect((measured["short"] ?? 0) >= 50_000_000, "\(series), schedule \(number): \(measured)")
          // Virtual: the run does not wait the 100 ms in real time, so the reads run ahead of
          // real time by about that, not by seconds.
          #expect((measured["long"] ?? .max) < 1_000_000_000, "\(series), schedule \(number): \(measured)")
          return (result, true)
        }
      }
    }

    /// `time()` counts whole seconds: a sleep of an hour measures an hour.
    @Test
    @available(ExecutorHooks 1.0, *)
    func anHourOfSleepIsAnHourForTime() throws {
      let result = ControlledExecutor.runBlocking(seed: 1, Self.sleepers(.wallTime, sleep: .seconds(3_600)))
      #expect(Self.measured(result)["long"].map { $0 >= 3_600_000_000_000 } == true, "\(Self.measured(result))")
    }

    /// After a long virtual sleep, a Dispatch timer the run arms for 20 ms fires after its 20 ms
    /// of real time and before the run's next sleep ends: its deadline, computed from a read
    /// that follows virtual time, is moved back to real time on its way to Dispatch. (Left ten
    /// virtual seconds ahead, it would fire after that sleep ended.) In a process of its own: a test process whose other tests
    /// block every thread of Dispatch's pool would starve the timer, as on real threads.
    @available(ExecutorHooks 1.0, *)
    @Test func aDispatchTimerArmedAfterALongSleepFiresOnTime() async throws {
      try #require(ControlledExecutor.countsOutsideWork)
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        for seed in UInt64(1)...5 {
          let result = ControlledExecutor.runBlocking(seed: seed) {
            try? await Task.sleep(for: .seconds(10))
            let armed = qt_real_monotonic_nanoseconds()
            let firedAfter = Atomic<UInt64>(0)
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
              firedAfter.store(qt_real_monotonic_nanoseconds() - armed, ordering: .releasing)
            }
            try? await Task.sleep(for: .milliseconds(500))
            let after = firedAfter.load(ordering: .acquiring)
            TraceRecorder.mark(after >= 20_000_000 ? "on time" : "fired after \(after) ns")
          }
          let marks = result.trace.events.compactMap { if case .mark(let text) = $0.kind { text } else { nil } }
          print("seed \(seed): \(marks.joined(separator: ", "))")
        }
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      for seed in 1...5 { #expect(output.contains("seed \(seed): on time\n"), "\(output)") }
    }

    /// Between jobs, and on every other thread, reads are real: a thread of the test reads no
    /// skipped time while a run that skipped an hour is active elsewhere, and after it.
    @Test
    @available(ExecutorHooks 1.0, *)
    func readsOutsideTheRunsJobsAreReal() throws {
      let before = ContinuousClock.now
      let result = ControlledExecutor.runBlocking(seed: 1) {
        try? await Task.sleep(for: .seconds(3_600))
        TraceRecorder.mark("in the run: \(ContinuousClock.now > before + .seconds(3_600))")
      }
      #expect(HopSchedulingTests.leavesMark(result, "in the run: true"))
      #expect(ContinuousClock.now < before + .seconds(600))
    }
  }
#endif
