import Testing

@testable import QueueTestingEngine

@Suite("Scenario minimizer", .timeLimit(.minutes(5)), .hangGuard)
struct ScenarioMinimizerTests {
  typealias Scenario = OperationScenario<QueueModel.Operation>

  static func generate(_ generator: inout ScenarioRandom) -> QueueModel.Operation {
    switch generator.next() % 3 {
    case 0: .enqueue(Int(generator.next() % 8))
    case 1: .poll
    default: .take
    }
  }

  /// Smaller enqueued values, smallest first.
  static func shrink(_ operation: QueueModel.Operation) -> [QueueModel.Operation] {
    guard case .enqueue(let value) = operation else { return [] }
    return (0..<value).map(QueueModel.Operation.enqueue)
  }

  /// The tasks (columns) holding an operation that matches.
  static func tasks(of scenario: Scenario, where matches: (QueueModel.Operation) -> Bool) -> Set<Int> {
    Set(scenario.parallel.indices.filter { scenario.parallel[$0].contains(where: matches) })
  }

  /// A bug that needs an `enqueue` of 3 or more in one task and a `poll` in another comes down to
  /// those two operations, in two tasks, the value shrunk to 3.
  @Test func aFailureComesDownToWhatItNeeds() async {
    let fails: (Scenario) -> Bool = { scenario in
      let enqueuers = Self.tasks(of: scenario) { if case .enqueue(let value) = $0 { value >= 3 } else { false } }
      let pollers = Self.tasks(of: scenario) { $0 == .poll }
      return enqueuers.contains { enqueuer in pollers.contains { $0 != enqueuer } }
    }
    var seed: UInt64 = 0
    var scenario: Scenario
    repeat {
      seed += 1
      scenario = .random(
        seed: seed, tasks: 3, operationsPerTask: 5, initialCount: 2, finalCount: 2, generate: Self.generate)
    } while !fails(scenario)
    let (minimal, attempts, _) = await ScenarioMinimizer().minimize(scenario, fails: fails, shrink: Self.shrink)
    #expect(minimal.operationCount == 2 && minimal.parallel.count == 2, "\(minimal)")
    #expect(minimal.parallel.flatMap { $0 }.contains(.enqueue(3)), "\(minimal)")
    #expect(attempts < 100)
  }

  /// A bug whose operations must balance (one more `enqueue` than `take`s, and a `poll`) cannot
  /// lose either of an `enqueue` and a `take` alone, but can lose both at once.
  @Test func operationsThatBalanceGoInPairs() async throws {
    let fails: (Scenario) -> Bool = { scenario in
      let all = scenario.initial + scenario.parallel.flatMap { $0 } + scenario.final
      let enqueues = all.filter { if case .enqueue = $0 { true } else { false } }.count
      return enqueues == all.filter { $0 == .take }.count + 1 && all.contains(.poll)
    }
    let scenario = Scenario(parallel: [[.enqueue(1), .take], [.enqueue(2), .poll]])
    let result = await ScenarioMinimizer().minimize(scenario, fails: fails)
    #expect(result.scenario.operationCount == 2, "\(result.scenario)")
    #expect(fails(result.scenario))
    let text = result.edits.map(\.description).joined(separator: ",")
    let edits = try #require(ScenarioEdit.edits(parsing: text[...]))
    #expect(ScenarioEdit.apply(edits, to: scenario, shrink: { _ in [] }) == result.scenario, "\(text)")
  }

  /// On 300 random scenarios and failures that need a few operations of some kinds: what comes
  /// back still fails, and no single operation can be removed, nor value shrunk, with it failing.
  @Test func whatComesBackIsMinimalStepByStep() async throws {
    var generator = SplitMix64(seed: 47)
    var minimized = 0
    for seed in UInt64(1)...300 {
      let needsEnqueues = Int(generator.next() % 3)
      let needsTakes = Int(generator.next() % 2) + 1
      let fails: (Scenario) -> Bool = { scenario in
        let all = scenario.initial + scenario.parallel.flatMap { $0 } + scenario.final
        let sum = all.reduce(0) { if case .enqueue(let value) = $1 { $0 + value } else { $0 } }
        return all.filter { $0 == .take }.count >= needsTakes && sum >= needsEnqueues * 4
      }
      let scenario = Scenario.random(
        seed: seed, tasks: 3, operationsPerTask: 4, initialCount: 1, finalCount: 1, generate: Self.generate)
      guard fails(scenario) else { continue }
      minimized += 1
      let result = await ScenarioMinimizer().minimize(scenario, fails: fails, shrink: Self.shrink)
      let minimal = result.scenario
      #expect(fails(minimal))
      // Its edits, through their text form, make the same scenario from the first.
      let text = result.edits.map(\.description).joined(separator: ",")
      let edits = try #require(ScenarioEdit.edits(parsing: text[...]), "\(text)")
      #expect(ScenarioEdit.apply(edits, to: scenario, shrink: Self.shrink) == minimal, "\(text)")
      for candidate in Self.oneStepSmaller(minimal) {
        #expect(!fails(candidate), "\(minimal) still fails as \(candidate)")
      }
    }
    #expect(minimized > 50)
  }

  /// Every scenario one removal or one shrink away from `scenario`.
  static func oneStepSmaller(_ scenario: Scenario) -> [Scenario] {
    var smaller: [Scenario] = []
    for task in scenario.parallel.indices {
      for position in scenario.parallel[task].indices {
        var removed = scenario
        removed.parallel[task].remove(at: position)
        smaller.append(removed)
        for shrunk in shrink(scenario.parallel[task][position]) {
          var candidate = scenario
          candidate.parallel[task][position] = shrunk
          smaller.append(candidate)
        }
      }
    }
    for position in scenario.initial.indices {
      var removed = scenario
      removed.initial.remove(at: position)
      smaller.append(removed)
    }
    for position in scenario.final.indices {
      var removed = scenario
      removed.final.remove(at: position)
      smaller.append(removed)
    }
    return smaller
  }

  /// `fails` is asked at most the cap's number of times, and the same seed gives the same scenario.
  @Test func attemptsAreCappedAndScenariosReplay() async {
    let scenario = Scenario.random(seed: 9, tasks: 3, operationsPerTask: 5, generate: Self.generate)
    #expect(scenario == Scenario.random(seed: 9, tasks: 3, operationsPerTask: 5, generate: Self.generate))
    var asked = 0
    let result = await ScenarioMinimizer(maximumAttempts: 10).minimize(scenario) { _ in
      asked += 1
      return true
    }
    #expect(asked == 10 && result.attempts == 10)
  }
}
