/// A portfolio's random member: ``SeededRandomStrategy``'s choices, with a summary that says
/// which member ran (PCT's summary names itself).
struct PortfolioRandomStrategy: ScheduleStrategy, Sendable {
  private var random: SeededRandomStrategy

  init(seed: UInt64) {
    random = SeededRandomStrategy(seed: seed)
  }

  mutating func choose(runnableCount: Int) -> Int {
    random.choose(runnableCount: runnableCount)
  }

  var summary: String? { "random" }
}
