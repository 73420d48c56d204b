import QueueScenarios
import QueueTestingEngine
import QueueWorkloads
import Testing

@testable import QueueFuzzCore

@Suite("Failure text", .timeLimit(.minutes(5)), .hangGuard)
struct FailureTextTests {
  @Test(arguments: [
    ("completes", "deadlocks", "expected the run to complete, but it deadlocked"),
    ("deadlocks", "completes", "expected the run to deadlock, but it completed"),
    (
      "any", "step budget exceeded after 9 steps",
      "expected the run to complete or deadlock, but it ended: step budget exceeded after 9 steps"
    ),
  ])
  func outcomeSentencesReadAsEnglish(_ expected: String, _ observed: String, _ sentence: String) throws {
    #expect(FailureText.outcomeSentence(expected: expected, observed: observed) == sentence)
  }
}
