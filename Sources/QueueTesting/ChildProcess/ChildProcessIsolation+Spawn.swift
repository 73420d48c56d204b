#if compiler(>=6.3) && !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
  import AsyncQueue
  import Foundation
  import Testing

  // Starting a child process of the test binary and watching it until it ends.
  extension ChildProcessIsolation {
    /// Runs a child for `testIDs` (one after another) and returns how it ended (its issues left
    /// empty) and its event stream. While it runs, `whileRunning` gets the event stream written
    /// so far whenever it grew (polled every 20 ms), so that each test can be reported as it ends.
    static func spawn(
      testIDs: [String], timeLimit: Duration?, jobTimeLimit: Duration, environment extra: [String: String] = [:],
      whileRunning: (@Sendable (Data) -> Void)? = nil
    ) -> (Outcome, Data) {
      let arguments = CommandLine.arguments
      let stem = "queue-testing-child-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
      let events = FileManager.default.temporaryDirectory.appendingPathComponent(stem + ".jsonl")
      let heartbeat = FileManager.default.temporaryDirectory.appendingPathComponent(stem + ".alive")
      defer {
        try? FileManager.default.removeItem(at: events)
        try? FileManager.default.removeItem(at: heartbeat)
      }
      // Without a heartbeat file (a temporary folder that cannot be written) only the time limit binds.
      let hasHeartbeat = FileManager.default.createFile(atPath: heartbeat.path, contents: nil)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: arguments[0])
      process.arguments = childArguments(from: arguments, testIDs: testIDs, eventsPath: events.path)
      process.environment = childEnvironment(extra, heartbeat: hasHeartbeat ? heartbeat.path : nil)
      let output = Pipe()
      let errors = Pipe()
      process.standardOutput = output
      process.standardError = errors
      process.standardInput = FileHandle.nullDevice
      do {
        try process.run()
      } catch {
        return (
          Outcome(
            status: -1, endedBySignal: false, issues: [],
            standardError: "could not start the child process \(arguments[0]): \(error)"), Data()
        )
      }
      // Both pipes are drained while the child runs, so that a talkative child never blocks on
      // a full pipe; the standard output (the child's own progress lines) is not needed.
      let errorText = LockedState(Data())
      let errorsRead = DispatchSemaphore(value: 0)
      Thread {
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        errorText.withLock { $0 = data }
        errorsRead.signal()
      }.start()
      let finished = DispatchSemaphore(value: 0)
      let running = DispatchSemaphore(value: 0)
      let pid = process.processIdentifier
      let verdict = monitor(
        pid, until: finished, timeLimit: timeLimit, jobTimeLimit: jobTimeLimit,
        heartbeat: hasHeartbeat ? heartbeat.path : nil)
      let streamWatched = DispatchSemaphore(value: 0)
      if let whileRunning {
        Thread {
          watchEvents(at: events.path, until: running, whileRunning)
          streamWatched.signal()
        }.start()
      } else {
        streamWatched.signal()
      }
      _ = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      finished.signal()
      running.signal()
      streamWatched.wait()
      errorsRead.wait()
      var outcome = Outcome(
        status: process.terminationStatus, endedBySignal: process.terminationReason == .uncaughtSignal,
        issues: [], standardError: String(decoding: errorText.withLock { $0 }, as: UTF8.self),
        parentVerdict: verdict.withLock { $0 })
      // A child that ended inside a schedule wrote its last words (the runtime's crash message,
      // the watchdog's report, an exit's note) where that schedule's output went.
      if let running = ScheduleOutput.takeRunning(pid: pid), !running.isEmpty {
        outcome.runningOutput = running
        outcome.standardError += "\n" + running
      }
      return (outcome, (try? Data(contentsOf: events)) ?? Data())
    }

    /// The environment of a child: this process's, with `extra`, the child's variables and the
    /// heartbeat file (nil: none).
    fileprivate static func childEnvironment(_ extra: [String: String], heartbeat: String?) -> [String: String] {
      var environment = ProcessInfo.processInfo.environment.merging(extra) { _, new in new }
      environment[childVariable] = "1"
      if let folder = ScheduleOutput.parentFolder { environment[ScheduleOutput.variable] = folder }
      // The child ends itself when this process is gone (see `JobWatchdog`).
      environment[JobWatchdog.parentVariable] = String(ProcessInfo.processInfo.processIdentifier)
      if let heartbeat { environment[heartbeatVariable] = heartbeat }
      // A crash's message and source line, not a register dump, unless asked for.
      if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
      return environment
    }

    /// Watches the child `pid` on a thread of its own until `finished` is signalled: a child that
    /// outlives the test's time limit, or stops showing that it is alive (see `ChildMonitor`), is
    /// ended, asked first, then killed (a stopped process heeds only the kill). Returns where the
    /// watch keeps its verdict.
    fileprivate static func monitor(
      _ pid: Int32, until finished: DispatchSemaphore, timeLimit: Duration?, jobTimeLimit: Duration,
      heartbeat: String?
    ) -> LockedState<ChildMonitor.Verdict> {
      let verdict = LockedState(ChildMonitor.Verdict.running)
      Thread {
        var monitor = ChildMonitor(
          started: .now, timeLimit: timeLimit, jobTimeLimit: jobTimeLimit, grace: timeLimitGrace,
          heartbeat: heartbeat != nil)
        while finished.wait(timeout: .now() + 0.25) == .timedOut {
          let found = monitor.look(beat: heartbeat.flatMap(readHeartbeat(at:)), at: .now)
          guard found != .running else { continue }
          verdict.withLock { $0 = found }
          kill(pid, SIGTERM)
          if finished.wait(timeout: .now() + 2) == .timedOut { kill(pid, SIGKILL) }
          return
        }
      }.start()
      return verdict
    }

    /// Hands the child's event stream at `path` to `whileRunning` each time it grows, until
    /// `running` is signalled.
    fileprivate static func watchEvents(
      at path: String, until running: DispatchSemaphore, _ whileRunning: @Sendable (Data) -> Void
    ) {
      var size = 0
      repeat {
        let data = FileManager.default.contents(atPath: path) ?? Data()
        if data.count != size {
          size = data.count
          whileRunning(data)
        }
      } while running.wait(timeout: .now() + 0.02) == .timedOut
    }

    /// The child's heartbeat count, nil while it has written none.
    static func readHeartbeat(at path: String) -> UInt64? {
      guard let data = FileManager.default.contents(atPath: path), data.count >= 8 else { return nil }
      return data.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// How Swift Testing's issue for a test past its `.timeLimit` begins.
    static let timeLimitIssuePrefix = "Time limit was exceeded"

  }
#endif
