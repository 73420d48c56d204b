import AsyncQueue
import QueueTestingEngine
import QueueWorkloads
import Testing

// "SerialTasks": an actor that chains each new task after the previous one, so
// requests made in quick succession run one after another and each caller gets its own result.
// With this library that chain is a FIFOQueue; this test is such a view model, with a request
// that fails in the middle.

@Suite("Serial result chain", .timeLimit(.minutes(5)), .hangGuard)
struct SerialResultChainTests {
  struct RequestFailed: Error, Equatable { let request: Int }

  @MainActor
  final class ViewModel {
    private let serialTasks = FIFOQueue()
    private(set) var string = ""
    private(set) var started: [Int] = []

    /// The seed's `makeRequest`: each call waits for the previous one and updates `string`.
    func makeRequest(_ request: Int, running: TestGate? = nil, gate: TestGate? = nil) async throws {
      string = try await serialTasks.enqueueAndWait {
        self.started.append(request)
        running?.open()
        await gate?.wait()
        if request == 2 { throw RequestFailed(request: request) }
        return "uuid-\(request)"
      }
    }
  }

  @MainActor
  @Test func resultsArriveInOrderAndAnErrorReachesOnlyItsCaller() async throws {
    let model = ViewModel()
    let firstRunning = TestGate("gate")
    let firstGate = TestGate("gate")
    // Tap the button four times quickly: the first request is still running when the others come.
    let first = Task { try await model.makeRequest(1, running: firstRunning, gate: firstGate) }
    await firstRunning.wait()
    let second = Task { try await model.makeRequest(2) }
    let third = Task { try await model.makeRequest(3) }
    let fourth = Task { try await model.makeRequest(4) }
    // Nothing else starts while the first request holds the queue.
    for _ in 0..<100 { await Task.yield() }
    #expect(model.started == [1])
    firstGate.open()
    try await first.value
    await #expect(throws: RequestFailed(request: 2)) { try await second.value }
    try await third.value
    try await fourth.value
    // Requests 2–4 come from three tasks, which the runtime may start in any order; whatever
    // that order, each caller got its own result or error, the failure stopped none of the
    // others, and the view shows the last successful request.
    #expect(model.started.count == 4)
    #expect(Set(model.started) == [1, 2, 3, 4])
    let lastSuccessful = model.started.last { $0 != 2 } ?? 0
    #expect(model.string == "uuid-\(lastSuccessful)")
  }
}
