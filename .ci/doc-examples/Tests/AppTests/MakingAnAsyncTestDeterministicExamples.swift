// MakingAnAsyncTestDeterministic.md's examples, verbatim, with the imports the article shows.
import AsyncQueue
import QueueTesting
import Testing

// MARK: - MakingAnAsyncTestDeterministic.md


@Test(.controlledScheduling(.random(50, seed: 1)))
func fifoQueueKeepsOrder() async {
  let queue = FIFOQueue()
  let recorder = OrderRecorder()
  for index in 1...10 {
    queue.enqueue { recorder.mark("item \(index)") }
  }
  await queue.enqueueAndWait {}
  expectOrder(recorder, (1...10).map { "item \($0)" })
  expectQueueGuarantees()
}

/// One download per URL, shared by concurrent callers: the in-flight task is stored before the
/// first suspension, so a second caller finds it.
actor ImageCache {
  private let download: @Sendable (String) async -> String
  private var entries: [String: Task<String, Never>] = [:]

  init(download: @escaping @Sendable (String) async -> String) {
    self.download = download
  }

  func image(from url: String) async -> String {
    if let entry = entries[url] { return await entry.value }
    let download = self.download
    let task = Task { await download(url) }
    entries[url] = task
    return await task.value
  }
}

@Test(.controlledScheduling(.exhaustive(delayBound: 2)))
func cacheDownloadsOnce() async throws {
  let downloads = OrderRecorder()
  let cache = ImageCache { url in
    downloads.mark(url)
    await Task.yield()
    return "image of \(url)"
  }
  async let first = cache.image(from: "a")
  async let second = cache.image(from: "a")
  _ = await (first, second)
  expectOrder(downloads, ["a"])
}

@Test(.controlledScheduling(.random(20)))
func gateHoldsWorkUntilOpened() async {
  let gate = TestGate("loaded")
  let recorder = OrderRecorder()
  let worker = Task {
    await gate.wait()
    recorder.mark("worker")
  }
  recorder.mark("test")
  gate.open()
  await worker.value
  expectOrder(recorder, ["test", "worker"])
}
