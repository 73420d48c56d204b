import QueueTesting
import Testing

// Actor-reentrancy bugs as a user writes them, and their fixes. The tests named `buggy...` must
// fail with a replay line on an early schedule; the `fixed...` ones must pass.

actor AuditLog {
  private(set) var entries: [String] = []
  func record(_ entry: String) { entries.append(entry) }
}

/// Reads the balance, awaits a synchronous method of another actor, writes: a lost update.
actor BuggyAccount {
  private(set) var balance = 100
  let log = AuditLog()

  func withdraw(_ amount: Int) async {
    let current = balance
    await log.record("withdraw \(amount)")
    balance = current - amount
  }
}

/// Changes the balance before the suspension.
actor FixedAccount {
  private(set) var balance = 100
  let log = AuditLog()

  func withdraw(_ amount: Int) async {
    balance -= amount
    await log.record("withdraw \(amount)")
  }
}

/// The mock server of a test: a plain actor whose method never suspends.
actor MockServer {
  private(set) var downloads = 0
  func download(_ url: String) -> String {
    downloads += 1
    return "image of \(url)"
  }
}

/// Checks the cache, awaits the download, stores: two requests download twice.
actor BuggyImageCache {
  let server = MockServer()
  private var cache: [String: String] = [:]

  func image(from url: String) async -> String {
    if let cached = cache[url] { return cached }
    let image = await server.download(url)
    cache[url] = image
    return image
  }
}

/// Stores the in-flight task before the first suspension.
actor FixedImageCache {
  let server = MockServer()
  private var cache: [String: Task<String, Never>] = [:]

  func image(from url: String) async -> String {
    if let task = cache[url] { return await task.value }
    let server = self.server
    let task = Task { await server.download(url) }
    cache[url] = task
    return await task.value
  }
}

@Test(.controlledScheduling(.random(100)))
func buggyAccountLosesNoUpdate() async {
  let account = BuggyAccount()
  let first = Task { await account.withdraw(10) }
  let second = Task { await account.withdraw(20) }
  await first.value
  await second.value
  #expect(await account.balance == 70)
}

@Test(.controlledScheduling(.random(100)))
func fixedAccountLosesNoUpdate() async {
  let account = FixedAccount()
  let first = Task { await account.withdraw(10) }
  let second = Task { await account.withdraw(20) }
  await first.value
  await second.value
  #expect(await account.balance == 70)
}

/// A test whose name extends a failing test's: the failing test's replay line must not run it
/// (`.ci/downstream.sh` checks that a replay runs one test).
@Test func buggyCacheDownloadsOnceNamesake() {}

@Test(.controlledScheduling(.random(100)))
func buggyCacheDownloadsOnce() async {
  let cache = BuggyImageCache()
  async let first = cache.image(from: "u")
  async let second = cache.image(from: "u")
  _ = await (first, second)
  #expect(await cache.server.downloads == 1)
}

@Test(.controlledScheduling(.random(100)))
func fixedCacheDownloadsOnce() async {
  let cache = FixedImageCache()
  async let first = cache.image(from: "u")
  async let second = cache.image(from: "u")
  _ = await (first, second)
  #expect(await cache.server.downloads == 1)
}
