import Foundation
import QueueScenarios
import QueueTestingEngine
import QueueWorkloads
import Testing

@Suite("Scenario parser", .timeLimit(.minutes(5)), .hangGuard)
struct ScenarioParserTests {
  static let valid = """
    scenario 1
    # a comment
    name a valid file
    outcome any
    check fifo-start actor-start
    queue q fifo
    queue a actor   # trailing comment
    queue m main
    caller c1 sync
      enqueue q i1
      task a i2 priority high
      cancel i2
      work
    caller c2 task priority background
      wait q i3
      yield
      sleep 15ms
    item i1
      work
      suspend
      enqueue m i4 priority low
    item i2
      yield
      throw
    item i3
      sleep 2s
    item i4
      work
    """

  /// Every corpus file parses to the same scenario with LF, CRLF, lone CR or mixed line endings.
  @Test func lineEndingsDoNotMatter() throws {
    let files = try FileManager.default.subpathsOfDirectory(atPath: scenariosFolder)
      .filter { $0.hasSuffix(".scenario") }
    #expect(files.count > 30)
    for file in files {
      let text = try String(contentsOfFile: scenariosFolder + "/" + file, encoding: .utf8)
      let lf = try ScenarioParser.parse(text, path: file)
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      let endings = ["\r\n", "\r", "\n"]
      for (name, joined) in [
        ("CRLF", lines.joined(separator: "\r\n")),
        ("CR", lines.joined(separator: "\r")),
        ("mixed", lines.enumerated().map { $0.element + endings[$0.offset % 3] }.joined()),
      ] {
        #expect(try ScenarioParser.parse(joined, path: file) == lf, "\(file) with \(name) line endings")
      }
    }
  }

  /// Control characters quoted from a file are shown escaped, never sent to the terminal.
  @Test func controlCharactersInMessagesAreEscaped() {
    do {
      _ = try ScenarioParser.parse("scenario 1\nqueue q \u{1B}[2J\u{07}\n", path: "x\u{1B}.scenario")
      Issue.record("the bad queue kind parsed")
    } catch {
      let text = error.errors.map(\.description).joined(separator: "\n")
      #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" }, "\(text)")
      #expect(text.contains(#"\u{1B}[2J\u{7}"#), "\(text)")
      #expect(text.hasPrefix(#"x\u{1B}.scenario:2:"#), "\(text)")
    }
  }

  /// Errors in a CRLF file point at the same line and column as in the LF file.
  @Test func crlfErrorsKeepTheirPositions() {
    let text = "scenario 1\nqueue q lifo\ncaller c sync\n  enqueue q a\nitem a\n    frobnicate\n"
    func errors(_ text: String) -> [String] {
      do {
        _ = try ScenarioParser.parse(text, path: "x.scenario")
        return []
      } catch {
        return error.errors.map { "\($0.line):\($0.column)" }
      }
    }
    let lf = errors(text)
    // The queue 'q' that line 2 fails to declare is not reported again where line 4 uses it.
    #expect(lf == ["2:9", "6:5"])
    #expect(errors(text.replacingOccurrences(of: "\n", with: "\r\n")) == lf)
  }

  /// A long chain of nested items parses (validation is linear), and a cycle closing it is
  /// reported on every item of the cycle.
  @Test func aLongChainOfNestedItemsParsesAndItsCycleIsFound() throws {
    let count = 20_000
    var lines = ["scenario 1", "queue q fifo", "caller c sync", "  enqueue q i1"]
    for index in 1...count {
      lines.append("item i\(index)")
      if index < count { lines.append("  enqueue q i\(index + 1)") }
    }
    let scenario = try ScenarioParser.parse(lines.joined(separator: "\n"), path: "chain.scenario")
    #expect(scenario.items.count == count)

    lines[3] = "  work"
    lines.append("  enqueue q i1")
    do {
      _ = try ScenarioParser.parse(lines.joined(separator: "\n"), path: "cycle.scenario")
      Issue.record("a cycle of enqueues was accepted")
    } catch {
      #expect(error.errors.count == count)
      #expect(error.errors.allSatisfy { $0.message.contains("is enqueued by its own steps") })
    }
  }

  @Test func parsesEveryConstruct() throws {
    let scenario = try ScenarioParser.parse(Self.valid, path: "valid.scenario")
    #expect(scenario.name == "a valid file")
    #expect(scenario.outcome == .any)
    #expect(scenario.checks == [.fifoStart, .actorStart])
    #expect(scenario.queues.map(\.kind) == [.fifo, .actor, .main])
    #expect(scenario.callers.map(\.context) == [.sync, .task])
    #expect(scenario.callers[1].priority == .background)
    #expect(
      scenario.callers[0].steps.map(\.action) == [
        .enqueue(queue: "q", item: "i1", style: .enqueue, priority: nil, barrier: false),
        .enqueue(queue: "a", item: "i2", style: .task, priority: .high, barrier: false), .cancel(item: "i2"), .work,
      ])
    #expect(scenario.callers[1].steps.map(\.action)[2] == .sleep(nanoseconds: 15_000_000))
    #expect(scenario.items.map(\.name) == ["i1", "i2", "i3", "i4"])
    #expect(scenario.items[1].steps.last?.action == .throwError)
    #expect(scenario.items[2].steps[0].line == 26)
    #expect(scenario.stepCount == 14)
  }

  /// Concurrent queues with their width, barriers in every enqueue style, semaphores, and
  /// acquisitions with and without cancellation, read and written back.
  @Test func concurrentQueuesAndSemaphoresRoundTrip() throws {
    let text = """
      scenario 1
      queue pool concurrent 3
      semaphore permits 2
      caller c task
        enqueue pool a priority high barrier
        task pool b barrier
        wait pool d barrier
        acquire permits unless-cancelled
        release permits
      caller s sync
        release permits
      item a
        acquire permits
      item b
      item d

      """
    let scenario = try ScenarioParser.parse(text, path: "pool.scenario")
    #expect(scenario.queues == [Scenario.Queue(name: "pool", kind: .concurrent, width: 3)])
    #expect(scenario.semaphores == [Scenario.Semaphore(name: "permits", value: 2)])
    #expect(
      scenario.callers[0].steps.map(\.action) == [
        .enqueue(queue: "pool", item: "a", style: .enqueue, priority: .high, barrier: true),
        .enqueue(queue: "pool", item: "b", style: .task, priority: nil, barrier: true),
        .enqueue(queue: "pool", item: "d", style: .wait, priority: nil, barrier: true),
        .acquire(semaphore: "permits", unlessCancelled: true), .release(semaphore: "permits"),
      ])
    #expect(scenario.items[0].steps.map(\.action) == [.acquire(semaphore: "permits", unlessCancelled: false)])
    let reparsed = try ScenarioParser.parse(scenario.text, path: "pool.scenario")
    #expect(reparsed.queues == scenario.queues)
    #expect(reparsed.semaphores == scenario.semaphores)
    #expect(reparsed.callers.map { $0.steps.map(\.action) } == scenario.callers.map { $0.steps.map(\.action) })
    #expect(reparsed.items.map { $0.steps.map(\.action) } == scenario.items.map { $0.steps.map(\.action) })
  }

  @Test func textFormRoundTrips() throws {
    let scenario = try ScenarioParser.parse(Self.valid, path: "valid.scenario")
    var reparsed = try ScenarioParser.parse(scenario.text, path: "valid.scenario")
    #expect(reparsed.queues == scenario.queues)
    #expect(reparsed.callers.map { $0.steps.map(\.action) } == scenario.callers.map { $0.steps.map(\.action) })
    #expect(reparsed.items.map { $0.steps.map(\.action) } == scenario.items.map { $0.steps.map(\.action) })
    reparsed.callers = scenario.callers
    reparsed.items = scenario.items
    #expect(reparsed == scenario)
  }

  /// `schedule` lines are kept in order and written back by the text form.
  @Test func regressionSchedulesRoundTrip() throws {
    let text = "scenario 1\nschedule s1:0.1.a\nschedule s1:\nqueue q fifo\ncaller c sync\n  enqueue q i\nitem i\n"
    let scenario = try ScenarioParser.parse(text, path: "regression.scenario")
    #expect(scenario.regressionSchedules == [Schedule(choices: [0, 1, 10]), Schedule(choices: [])])
    let reparsed = try ScenarioParser.parse(scenario.text, path: "regression.scenario")
    #expect(reparsed.regressionSchedules == scenario.regressionSchedules)
  }

  @Test func defaultNameIsTheFileName() throws {
    let scenario = try ScenarioParser.parse("scenario 1\n", path: "dir/some-case.scenario")
    #expect(scenario.name == "some-case")
    #expect(scenario.outcome == .completes)
    #expect(scenario.checks == Set(Guarantee.allCases))
  }

  /// Each malformed input, the position of its first error and a phrase the message must hold.
  static let malformed: [(String, String, Int, Int, String)] = [
    ("empty file", "", 1, 1, "empty scenario"),
    ("only comments", "# nothing\n\n", 1, 1, "empty scenario"),
    ("missing header", "queue q fifo\n", 1, 1, "expected the header 'scenario 1'"),
    ("header without version", "scenario\n", 1, 1, "exactly one version"),
    ("unsupported version", "scenario 2\n", 1, 10, "unsupported format version '2'"),
    ("duplicate header", "scenario 1\nscenario 1\n", 2, 1, "duplicate header"),
    ("unknown directive", "scenario 1\nqueues q fifo\n", 2, 1, "unknown directive 'queues'"),
    ("unknown queue kind", "scenario 1\nqueue q lifo\n", 2, 9, "unknown queue kind 'lifo'"),
    ("queue without kind", "scenario 1\nqueue q\n", 2, 1, "expected 'queue NAME fifo|actor|main'"),
    ("invalid queue name", "scenario 1\nqueue 9q fifo\n", 2, 7, "invalid queue name '9q'"),
    ("duplicate queue", "scenario 1\nqueue q fifo\nqueue q actor\n", 3, 7, "already declared on line 2"),
    ("second main queue", "scenario 1\nqueue m main\nqueue n main\n", 3, 9, "a second main queue"),
    ("unknown caller context", "scenario 1\ncaller c thread\n", 2, 10, "expected sync or task"),
    ("sync caller with priority", "scenario 1\ncaller c sync priority high\n", 2, 15, "a sync caller has no priority"),
    ("unknown priority", "scenario 1\ncaller c task priority urgent\n", 2, 24, "unknown priority 'urgent'"),
    ("step outside a block", "scenario 1\n  work\n", 2, 3, "outside a caller or item"),
    ("unknown step", "scenario 1\nitem i\n  sleepy\n", 3, 3, "unknown step 'sleepy'"),
    ("suspending step in sync caller", "scenario 1\ncaller c sync\n  yield\n", 3, 3, "a sync caller cannot do"),
    (
      "wait in sync caller", "scenario 1\nqueue q fifo\ncaller c sync\n  wait q i\nitem i\n", 4, 3,
      "a sync caller cannot do"
    ),
    ("throw in a caller", "scenario 1\ncaller c task\n  throw\n", 3, 3, "'throw' is for items"),
    ("step after throw", "scenario 1\nitem i\n  throw\n  work\n", 4, 3, "after 'throw' never runs"),
    ("invalid duration", "scenario 1\nitem i\n  sleep 10 ms\n", 3, 12, "expected 'sleep DURATION"),
    ("bad duration unit", "scenario 1\nitem i\n  sleep 10days\n", 3, 9, "invalid duration '10days'"),
    ("overflowing duration", "scenario 1\nitem i\n  sleep 99999999999999999h\n", 3, 9, "invalid duration"),
    (
      "enqueue missing item", "scenario 1\nqueue q fifo\ncaller c sync\n  enqueue q\n", 4, 3,
      "expected 'enqueue QUEUE ITEM"
    ),
    (
      "wait with priority", "scenario 1\nqueue q fifo\ncaller c task\n  wait q i priority high\nitem i\n", 4, 12,
      "expected 'wait QUEUE ITEM [barrier]'"
    ),
    (
      "unknown queue in step", "scenario 1\ncaller c sync\n  enqueue nowhere i\nitem i\n", 3, 11,
      "unknown queue 'nowhere'"
    ),
    (
      "barrier on a FIFO queue", "scenario 1\nqueue q fifo\ncaller c sync\n  enqueue q i barrier\nitem i\n", 4, 11,
      "'barrier' needs a concurrent queue"
    ),
    ("concurrent queue without width", "scenario 1\nqueue q concurrent\n", 2, 9, "the width of a concurrent queue"),
    ("concurrent queue of width 0", "scenario 1\nqueue q concurrent 0\n", 2, 20, "a whole number from 1 to 64"),
    ("negative semaphore", "scenario 1\nsemaphore s -1\n", 2, 13, "a whole number from 0 to 64"),
    (
      "unknown semaphore", "scenario 1\ncaller c task\n  acquire nothing\n", 3, 11,
      "unknown semaphore 'nothing'"
    ),
    (
      "acquire in a sync caller", "scenario 1\nsemaphore s 1\ncaller c sync\n  acquire s\n", 4, 3,
      "a sync caller cannot do"
    ),
    (
      "acquire with a typo", "scenario 1\nsemaphore s 1\ncaller c task\n  acquire s unless-canceled\n", 4, 13,
      "expected 'acquire SEMAPHORE [unless-cancelled]'"
    ),
    (
      // Inside an item's steps too: an undeclared queue there would otherwise check nothing.
      "unknown queue in an item's step",
      "scenario 1\nqueue q fifo\ncaller c sync\n  enqueue q a\nitem a\n  enqueue nowhere b\nitem b\n", 6, 11,
      "unknown queue 'nowhere'"
    ),
    (
      "unknown item in step", "scenario 1\nqueue q fifo\ncaller c sync\n  enqueue q ghost\n", 4, 13,
      "unknown item 'ghost'"
    ),
    (
      "item enqueued twice", "scenario 1\nqueue q fifo\ncaller c sync\n  enqueue q i\n  task q i\nitem i\n", 5, 10,
      "already enqueued on line 4"
    ),
    ("item never enqueued", "scenario 1\nitem lonely\n  work\n", 2, 6, "is never enqueued"),
    (
      "item enqueues itself",
      "scenario 1\nqueue q fifo\ncaller c sync\n  enqueue q a\nitem a\n  enqueue q b\nitem b\n  enqueue q a\n", 8, 13,
      "already enqueued"
    ),
    (
      "cancel of an enqueued item", "scenario 1\nqueue q fifo\ncaller c sync\n  enqueue q i\n  cancel i\nitem i\n", 5,
      10, "only items enqueued with 'task'"
    ),
    ("unknown guarantee", "scenario 1\ncheck fifo-order\n", 2, 7, "unknown guarantee 'fifo-order'"),
    ("unknown outcome", "scenario 1\noutcome hangs\n", 2, 9, "expected 'outcome completes|deadlocks|any'"),
    ("duplicate item", "scenario 1\nitem i\nitem i\n", 3, 6, "item 'i' is already declared on line 2"),
    ("item with extra words", "scenario 1\nitem i j\n", 2, 1, "expected 'item NAME'"),
    ("schedule without version", "scenario 1\nschedule 0.1.2\n", 2, 10, "invalid schedule: expected a schedule"),
    ("schedule with a bad choice", "scenario 1\nschedule s1:0.x!\n", 2, 10, "choice 2: expected a base-36 number"),
    ("schedule without choices", "scenario 1\nschedule\n", 2, 1, "expected 'schedule s1:CHOICES'"),
  ]

  @Test(arguments: Self.malformed.indices)
  func reportsMalformedInputWithItsPosition(_ index: Int) {
    let (kind, text, line, column, phrase) = Self.malformed[index]
    do {
      _ = try ScenarioParser.parse(text, path: "bad.scenario")
      Issue.record("\(kind): parsed without error")
    } catch {
      let first = error.errors.first
      #expect(first?.line == line, "\(kind): \(error)")
      #expect(first?.column == column, "\(kind): \(error)")
      #expect(first?.message.contains(phrase) == true, "\(kind): \(error)")
      #expect(first?.description.hasPrefix("bad.scenario:\(line):\(column): error: ") == true, "\(kind)")
    }
  }

  @Test func reportsEveryErrorOfAFile() {
    let text = "scenario 1\nqueue q lifo\ncaller c thread\nitem i\n  dance\n"
    do {
      _ = try ScenarioParser.parse(text, path: "many.scenario")
      Issue.record("parsed without error")
    } catch {
      #expect(error.errors.map(\.line) == [2, 3, 5, 4])
    }
  }

  @Test func binaryGarbageIsAnErrorNotATrap() {
    let garbage = String(decoding: (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37) }, as: UTF8.self)
    #expect(throws: ScenarioParseErrors.self) { try ScenarioParser.parse(garbage, path: "garbage") }
    #expect(throws: ScenarioParseErrors.self) { try ScenarioParser.parse("scenario 1\n" + garbage, path: "garbage") }
  }
}

/// One typo is one error: what the mistaken line declares or names is not reported again as
/// unknown or never enqueued, and the error says which word was meant.
@Suite("Scenario parser: one error per mistake", .timeLimit(.minutes(5)), .hangGuard)
struct ScenarioParserRecoveryTests {
  static let valid = """
    scenario 1
    queue q fifo
    caller c1 sync
      enqueue q a
      task q b
    caller c2 task
      wait q c
      enqueue q d
    item a
      suspend
    item b
      yield
    item c
      work
    item d
      sleep 10ms
    """

  /// Each typo (what it replaces, and with what), and what its one error suggests.
  static let typos: [(String, String, String)] = [
    ("  enqueue q a", "  enqeue q a", "did you mean 'enqueue'?"),
    ("queue q fifo", "queue q fifoo", "did you mean 'fifo'?"),
    ("item b", "iteem b", "did you mean 'item'?"),
    ("caller c2 task", "caler c2 task", "did you mean 'caller'?"),
    ("caller c2 task", "caller c2 tsk", "did you mean 'task'?"),
    ("  yield", "  yeild", "did you mean 'yield'?"),
    ("item d", "item d e", "expected 'item NAME'"),
    ("  wait q c", "  wait q c now", "expected 'wait QUEUE ITEM [barrier]'"),
    ("  task q b", "  task q b priority hihg", "did you mean 'high'?"),
  ]

  @Test func theValidFileParses() throws {
    _ = try ScenarioParser.parse(Self.valid, path: "valid.scenario")
  }

  @Test(arguments: Self.typos.indices)
  func oneTypoIsOneError(_ index: Int) {
    let (line, typo, phrase) = Self.typos[index]
    let text = Self.valid.replacingOccurrences(of: line + "\n", with: typo + "\n")
    #expect(text != Self.valid)
    do {
      _ = try ScenarioParser.parse(text, path: "typo.scenario")
      Issue.record("\(typo): parsed without error")
    } catch {
      #expect(error.errors.count == 1, "\(typo): \(error)")
      #expect(error.errors.first?.message.contains(phrase) == true, "\(typo): \(error)")
    }
  }

  /// Suggestions are for typos only: a word far from every known one gets none, and so does
  /// one equally close to two.
  @Test func suggestionsAreForTyposOnly() {
    #expect(NearestWord.closest(to: "rnu", among: ["run", "replay", "shrink"]) == "run")
    #expect(NearestWord.closest(to: "--schedule", among: ["--schedules", "--seed"]) == "--schedules")
    #expect(NearestWord.closest(to: "banana", among: ["run", "replay", "shrink"]) == nil)
    #expect(NearestWord.closest(to: "ab", among: ["a", "b"]) == nil)
    #expect(NearestWord.closest(to: "x", among: ["y"]) == nil)
  }
}
