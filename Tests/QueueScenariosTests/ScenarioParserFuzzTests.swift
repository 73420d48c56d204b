import Foundation
import QueueWorkloads
import Testing

@testable import QueueScenarios
@testable import QueueTestingEngine

/// The parser against thousands of mutated corpus files (seeded, so a failure replays): it
/// never traps, and every rejection points inside the file with a message.
@Suite("Scenario parser fuzzing", .timeLimit(.minutes(5)), .hangGuard)
struct ScenarioParserFuzzTests {
  /// Pieces a mutation inserts: keywords, names, odd numbers and characters.
  static let fragments = [
    "scenario", "queue", "item", "caller", "enqueue", "wait", "task", "cancel", "sleep", "yield", "suspend", "work",
    "throw", "priority", "high", "outcome", "check", "schedule", "s1:0.1", "fifo", "actor", "main", "sync", "#",
    "18446744073709551615ns", "99999999999999999999999ms", "-1ms", "0ms", "1e9s", "\t", "  ", "\r\n", "\r", "\n",
    "\u{0}", "é", "🦄", "\u{2028}", "i1", "q", "c", ":", "..", "s1:", "s1:999999999999999999999",
  ]

  @Test func mutatedCorpusFilesNeverTrapAndEveryRejectionIsLocated() throws {
    let files = try FileManager.default.subpathsOfDirectory(atPath: scenariosFolder)
      .filter { $0.hasSuffix(".scenario") }.sorted()
    let texts = try files.map { try String(contentsOfFile: scenariosFolder + "/" + $0, encoding: .utf8) }
    var generator = SplitMix64(seed: 2026)
    func random(_ bound: Int) -> Int { Int(generator.next() % UInt64(max(bound, 1))) }
    var rejected = 0
    for round in 0..<3_000 {
      var characters = Array(texts[round % texts.count])
      for _ in 0...random(4) {
        switch random(6) {
        case 0 where !characters.isEmpty:
          characters.remove(at: random(characters.count))
        case 1:
          characters.insert(contentsOf: Self.fragments[random(Self.fragments.count)], at: random(characters.count + 1))
        case 2 where !characters.isEmpty:
          characters.removeLast(random(characters.count))
        case 3:
          var lines = String(characters).split(separator: "\n", omittingEmptySubsequences: false)
          if lines.count > 1 { lines.swapAt(random(lines.count), random(lines.count)) }
          characters = Array(lines.joined(separator: "\n"))
        case 4 where !characters.isEmpty:
          let start = random(characters.count)
          let slice = characters[start..<min(characters.count, start + random(40))]
          characters.insert(contentsOf: slice, at: random(characters.count + 1))
        default:
          guard !characters.isEmpty else { continue }
          characters[random(characters.count)] = Character(UnicodeScalar(UInt8(random(128))))
        }
      }
      let text = String(characters)
      let lineCount = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.count
      do {
        _ = try ScenarioParser.parse(text, path: "mutant-\(round).scenario")
      } catch {
        rejected += 1
        #expect(!error.errors.isEmpty, "round \(round): rejected without an error")
        for problem in error.errors {
          #expect((1...max(lineCount, 1)).contains(problem.line), "round \(round): \(problem)")
          #expect(problem.column >= 1, "round \(round): \(problem)")
          #expect(!problem.message.isEmpty, "round \(round): \(problem)")
          #expect(problem.description.hasPrefix("mutant-\(round).scenario:\(problem.line):\(problem.column): error: "))
        }
      }
    }
    // The mutations are not all harmless: most files end up rejected.
    #expect(rejected > 1_000)
  }
}
