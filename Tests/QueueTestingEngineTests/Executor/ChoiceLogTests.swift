import QueueWorkloads
import Testing

@testable import QueueTestingEngine

/// A run's choices are packed two to a word; what comes back must be exactly what went in,
/// including choices too large to pack.
@Suite("Choice log", .timeLimit(.minutes(5)), .hangGuard)
struct ChoiceLogTests {
  @Test("Choices and branching come back in order, packed or kept whole")
  func roundTrip() {
    var pairs: [(choice: Int, branching: Int)] = []
    for index in 0..<9_000 {
      let branching = index % 11 + 2
      pairs.append((index % branching, branching))
    }
    // Too large for 16 bits, or not a valid choice: kept whole, in place.
    pairs.insert((70_000, 70_001), at: 5)
    pairs.insert((3, 65_536), at: 4_500)
    pairs.insert((0xFFFF, 0xFFFF), at: 8_000)
    pairs.insert((-1, 2), at: 8_100)
    pairs.append((65_534, 65_535))
    var log = ChoiceLog()
    for pair in pairs { log.append(choice: pair.choice, branching: pair.branching) }
    #expect(log.count == pairs.count)
    #expect(log.choices == pairs.map(\.choice))
    #expect(log.branching == pairs.map(\.branching))
  }

  @Test("A run's schedule and branching are the choices it made")
  @available(ExecutorHooks 1.0, *)
  func runResultUnpacks() {
    let result = ControlledExecutor.runBlocking(seed: 7) {
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<4 { group.addTask { await Task.yield() } }
      }
    }
    #expect(result.schedule.choices.count == result.branching.count)
    #expect(!result.branching.isEmpty)
    #expect(zip(result.schedule.choices, result.branching).allSatisfy { $0 >= 0 && $0 < $1 })
    let replayed = ControlledExecutor.runBlocking(strategy: ReplayStrategy(result.schedule)) {
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<4 { group.addTask { await Task.yield() } }
      }
    }
    #expect(replayed.trace == result.trace)
  }
}
