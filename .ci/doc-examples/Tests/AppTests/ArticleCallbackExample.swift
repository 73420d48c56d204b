// The article's callback example, with the imports the article shows by then.
import QueueTesting
import Testing
import Dispatch

enum ProfileClient {
  static func fetchName(id: Int, completion: @escaping @Sendable (String) -> Void) {
    DispatchQueue.global().async { completion("user \(id)") }
  }

  static func fetchName(id: Int) async -> String {
    await withCheckedContinuation { continuation in
      fetchName(id: id) { continuation.resume(returning: $0) }
    }
  }
}

@Test(.controlledScheduling())
func loadsBothProfiles() async {
  async let first = ProfileClient.fetchName(id: 1)
  async let second = ProfileClient.fetchName(id: 2)
  #expect(await [first, second] == ["user 1", "user 2"])
}
