#if compiler(>=6.3) && !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
  import Foundation

  /// What one worker process did with the tests it was given, test by test: the pure part of
  /// reusing a child process for many tests (see `ChildWorkers`).
  ///
  /// A worker runs its tests one at a time and writes Swift Testing's event stream. A test that
  /// ended there gets its own issues. When the worker ended without finishing (a crash, a stuck
  /// job its watchdog ended, a test that left its body unable to finish, a parent's verdict),
  /// the one test that started and did not end is the one that ended it: it gets the worker's
  /// exit status, standard error and verdict. The tests it never started go to a new worker. A
  /// worker that ended that way before starting any test gives every test its outcome (nothing
  /// would make a new worker fare better), and so does one that exited on its own without
  /// running some test.
  struct WorkerBatch: Sendable, Equatable {
    /// The tests the worker was given, by full identifier.
    let tests: [String]

    /// What the event stream says of each test.
    struct Events: Sendable, Equatable {
      var started: Set<String> = []
      var ended: Set<String> = []
      /// The issues of each test, known ones included (``ChildProcessIsolation/ChildIssue/isKnown``).
      var issues: [String: [ChildProcessIsolation.ChildIssue]] = [:]
      /// The tests that cancelled themselves (`Test.cancel`), with their comment and place.
      var cancellations: [String: ChildProcessIsolation.ChildIssue] = [:]
      /// The cases of parameterized tests that cancelled themselves, by test and by the case's
      /// name in the stream (its argument values).
      var caseCancellations: [String: [String: ChildProcessIsolation.ChildIssue]] = [:]
    }

    /// The split: an outcome for each test that has one, and the tests to run in a new worker.
    struct Split: Sendable, Equatable {
      var outcomes: [String: ChildProcessIsolation.Outcome] = [:]
      var again: [String] = []
    }

    /// Reads the starts, ends, issues and cancellations of a Swift Testing event stream
    /// (version 0), by test.
    static func events(_ data: Data) -> Events {
      var events = Events()
      events.read(data)
      return events
    }

    /// The part of a stream ``events(_:)`` has not read yet: what follows `offset`, up to its
    /// last complete line. Reading only that keeps a worker watched while it runs from parsing
    /// its stream again at every look.
    static func completeLines(of data: Data, after offset: Int) -> Data? {
      guard let end = data.lastIndex(of: UInt8(ascii: "\n")), end >= data.startIndex + offset else { return nil }
      return data[(data.startIndex + offset)...end]
    }

    /// Splits what the worker did (`process`: its exit status, standard error and the parent's
    /// verdict; its issues are ignored) among the tests.
    func split(events: Events, process: ChildProcessIsolation.Outcome) -> Split {
      var split = Split()
      let endedNormally =
        process.parentVerdict == .running && !process.endedBySignal && (process.status == 0 || process.status == 1)
      let culprit = tests.first { events.started.contains($0) && !events.ended.contains($0) }
      for test in tests {
        let issues = events.issues[test] ?? []
        if events.ended.contains(test) {
          split.outcomes[test] = ChildProcessIsolation.Outcome(
            status: 0, endedBySignal: false, issues: issues, standardError: "",
            cancellation: events.cancellations[test],
            caseCancellations: events.caseCancellations[test] ?? [:])
        } else if test == culprit || (culprit == nil && (endedNormally || events.started.isEmpty)) {
          var outcome = process
          outcome.issues = issues
          if endedNormally && test == culprit {
            // Exited by itself in the middle of the test (the code under test called `exit`).
            outcome.exitedDuringTest = true
          } else if endedNormally {
            // Exited by itself without running the test: say so rather than pass silently.
            outcome.status = -2
            outcome.standardError =
              "the child process exited (status \(process.status)) without running the test\n"
              + process.standardError
          }
          split.outcomes[test] = outcome
        } else {
          split.again.append(test)
        }
      }
      return split
    }
  }

  extension WorkerBatch.Events {
    /// Adds what the lines of `data` (event stream records, version 0) say.
    mutating func read(_ data: Data) {
      for line in data.split(separator: UInt8(ascii: "\n")) {
        guard let record = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
          record["kind"] as? String == "event",
          let payload = record["payload"] as? [String: Any],
          let test = payload["testID"] as? String
        else { continue }
        switch payload["kind"] as? String {
        case "testStarted": started.insert(test)
        case "testEnded": ended.insert(test)
        case "issueRecorded":
          if let issue = ChildProcessIsolation.issue(in: payload) { issues[test, default: []].append(issue) }
        // A case's own cancellation (the cases a replay line does not select) is not the test's.
        case "testCancelled":
          if cancellations[test] == nil { cancellations[test] = ChildProcessIsolation.cancellation(in: payload) }
        case "testCaseCancelled":
          if let testCase = payload["_testCase"] as? [String: Any], let name = testCase["displayName"] as? String {
            caseCancellations[test, default: [:]][name] = ChildProcessIsolation.cancellation(in: payload)
          }
        default: break
        }
      }
    }
  }
#endif
