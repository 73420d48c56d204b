// The examples of ConcurrentQueue's and AsyncSemaphore's documentation comments and of the
// article "A width, barriers and permits", compiled and run.
import AsyncQueue
import Foundation
import Synchronization
import Testing

/// What the examples load and compact.
actor ThumbnailCache {
  private(set) var loaded: [URL] = []
  private(set) var compactedAfter: Int?
  private(set) var loadsAtOnce = 0
  private var loading = 0

  func load(_ url: URL) async {
    loading += 1
    loadsAtOnce = max(loadsAtOnce, loading)
    await Task.yield()
    loaded.append(url)
    loading -= 1
  }

  func compact() {
    compactedAfter = loaded.count
  }
}

let images = (1...12).map { URL(string: "https://example.com/\($0).png")! }
let thumbnail = URL(string: "https://example.com/thumbnail.png")!

func concurrentQueueDocCommentExample(cache: ThumbnailCache) async {
  let queue = ConcurrentQueue(width: 4)
  for image in images {
    queue.enqueue { await cache.load(image) }       // up to 4 loads at once, started in order
  }
  queue.enqueueBarrier { await cache.compact() }    // after every load, alone
  queue.enqueue { await cache.load(thumbnail) }     // after the compaction

  await queue.enqueueBarrierAndWait {}
}

@Test func concurrentQueueDocCommentExampleRuns() async {
  let cache = ThumbnailCache()
  await concurrentQueueDocCommentExample(cache: cache)
  #expect(await cache.compactedAfter == images.count)
  #expect(await cache.loaded.count == images.count + 1)
  #expect(await cache.loaded.last == thumbnail)
}

func refresh(_ images: [URL], cache: ThumbnailCache) async {
  let loads = ConcurrentQueue(name: "loads", width: 4)
  for image in images {
    loads.enqueue { await cache.load(image) }       // up to four loads at once, started in order
  }
  loads.enqueueBarrier { await cache.compact() }    // after every load, alone
  await loads.enqueueBarrierAndWait {}              // returns once the compaction is done
}

@Test func refreshRuns() async {
  let cache = ThumbnailCache()
  await refresh(images, cache: cache)
  #expect(await cache.compactedAfter == images.count)
  #expect(await cache.loadsAtOnce <= 4)
}

func semaphoreDocCommentExample() async throws -> Data {
  let fetches = AsyncSemaphore(value: 3)
  let data = try await fetches.withPermitUnlessCancelled {
    try await fetch(url)            // three fetches at most at once
  }
  return data
}

@Test func semaphoreDocCommentExampleRuns() async throws {
  #expect(try await semaphoreDocCommentExample() == Data(url.absoluteString.utf8))
}

func fetchAll(_ urls: [URL], fetch: @escaping @Sendable (URL) async throws -> Data) async throws -> [Data] {
  let permits = AsyncSemaphore(value: 3)
  return try await withThrowingTaskGroup(of: Data.self) { group in
    for url in urls {
      group.addTask {
        try await permits.withPermitUnlessCancelled { try await fetch(url) }   // three at most at once
      }
    }
    return try await group.reduce(into: []) { $0.append($1) }
  }
}

@Test func fetchAllHoldsThreeAtMost() async throws {
  let atOnce = Mutex((now: 0, most: 0))
  let data = try await fetchAll(images) { url in
    atOnce.withLock {
      $0.now += 1
      $0.most = max($0.most, $0.now)
    }
    await Task.yield()
    atOnce.withLock { $0.now -= 1 }
    return Data(url.absoluteString.utf8)
  }
  #expect(data.count == images.count)
  #expect(atOnce.withLock { $0.most } <= 3)
}
