import Dispatch
import QueueTesting
import Testing

// Correct app code that leaves Swift's global executor, and one bug on a Dispatch-backed actor,
// as a user writes them, with no declaration for the harness. `.ci/downstream.sh` checks that
// the correct code passes, and that the bug fails as the bug with a replay line that fails again.

// MARK: The main actor keeps its order

/// A view model whose fix for "the spinner stays on" relies on the main actor running its tasks
/// in the order they were created.
@MainActor final class SpinnerModel {
  private(set) var spinnerShown = false
  private(set) var log: [String] = []

  func reload() -> [Task<Void, Never>] {
    [
      Task(priority: .background) {
        self.spinnerShown = true
        self.log.append("show")
      },
      Task(priority: .high) {
        self.spinnerShown = false
        self.log.append("hide")
      },
    ]
  }
}

@MainActor func reloadHidesTheSpinner() async {
  let model = SpinnerModel()
  for task in model.reload() { await task.value }
  #expect(model.log == ["show", "hide"])
  #expect(!model.spinnerShown)
}

@Test(.controlledScheduling(.random(200))) @MainActor
func mainActorTasksKeepCreationOrderRandom() async { await reloadHidesTheSpinner() }

@Test(.controlledScheduling(.pct(200, depth: 3))) @MainActor
func mainActorTasksKeepCreationOrderPCT() async { await reloadHidesTheSpinner() }

@Test(.controlledScheduling(.portfolio(200))) @MainActor
func mainActorTasksKeepCreationOrderPortfolio() async { await reloadHidesTheSpinner() }

@Test(.controlledScheduling(.exhaustive(delayBound: nil, budget: 200))) @MainActor
func mainActorTasksKeepCreationOrderExhaustive() async { await reloadHidesTheSpinner() }

// MARK: A completion handler on a Dispatch queue

/// A client with a completion-handler API that calls back on a global Dispatch queue (the shape
/// of URLSession and database clients), and its async bridge.
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
func completionHandlerBridgeLoadsBothProfiles() async {
  async let first = ProfileClient.fetchName(id: 1)
  async let second = ProfileClient.fetchName(id: 2)
  #expect(await [first, second] == ["user 1", "user 2"])
}

// MARK: An actor on a Dispatch queue

/// A serial executor on a Dispatch queue: the usual bridge from an actor to legacy code.
final class LegacyQueueExecutor: SerialExecutor {
  private let queue = DispatchQueue(label: "legacy")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedSerialExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}

/// A catalog whose lookups run on a legacy Dispatch queue. Checks, awaits the server, stores:
/// two lookups of the same key both miss and both download.
actor BuggyQueueBackedCatalog {
  private let executor = LegacyQueueExecutor()
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
  private var prices: [String: Int] = [:]
  private(set) var downloads = 0

  func price(of item: String) async -> Int {
    if let price = prices[item] { return price }
    downloads += 1
    let price = await PriceServer.download(item)
    prices[item] = price
    return price
  }
}

/// Stores the in-flight download before the first suspension.
actor FixedQueueBackedCatalog {
  private let executor = LegacyQueueExecutor()
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
  private var prices: [String: Task<Int, Never>] = [:]
  private(set) var downloads = 0

  func price(of item: String) async -> Int {
    if let task = prices[item] { return await task.value }
    downloads += 1
    let task = Task { await PriceServer.download(item) }
    prices[item] = task
    return await task.value
  }
}

enum PriceServer {
  static func download(_ item: String) async -> Int {
    await Task.yield()
    return item.count
  }
}

@Test(.controlledScheduling(.random(100)))
func buggyQueueBackedCatalogDownloadsOnce() async {
  let catalog = BuggyQueueBackedCatalog()
  async let first = catalog.price(of: "lamp")
  async let second = catalog.price(of: "lamp")
  _ = await (first, second)
  #expect(await catalog.downloads == 1)
}

@Test(.controlledScheduling(.random(100)))
func fixedQueueBackedCatalogDownloadsOnce() async {
  let catalog = FixedQueueBackedCatalog()
  async let first = catalog.price(of: "lamp")
  async let second = catalog.price(of: "lamp")
  _ = await (first, second)
  #expect(await catalog.downloads == 1)
}
