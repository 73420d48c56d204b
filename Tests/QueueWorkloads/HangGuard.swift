import Foundation
import Synchronization
import Testing

/// Ends the test process, naming the test, when a test has not finished `limit` after it started.
///
/// Swift Testing's `.timeLimit` records an issue when a test runs past it and cancels the test's
/// task, but a test suspended on something cancellation does not reach (a continuation no one
/// resumes, a queue turn that is never given back) stays suspended, and `swift test` waits for it
/// for ever. This trait turns that hang into a failure of the run: it prints which test hung and
/// exits with status 1. Every suite of this package carries it, with a limit a minute past its
/// `.timeLimit`, so the time-limit issue is printed first.
public struct HangGuard: TestTrait, SuiteTrait, TestScoping {
  /// How long a test may run before the process ends.
  public let limit: Duration

  /// The status the process exits with when a test hangs.
  public static let exitStatus: Int32 = 1

  /// A guard that ends the process `limit` after a test started.
  public init(limit: Duration) {
    self.limit = limit
  }

  /// Applies to every test of a suite it is attached to.
  public var isRecursive: Bool { true }

  /// Runs the test with a timer that, unless the test finished first, ends the process.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // The suite's own scope is not a test: its tests are guarded one by one.
    guard testCase != nil else { return try await function() }
    try await Self.guarding(test.id.description, limit: limit, function)
  }

  /// Runs `body`; if it has not returned `limit` later, prints that `name` hung and ends the
  /// process with ``exitStatus``.
  public static func guarding<Result>(
    _ name: String, limit: Duration, _ body: () async throws -> Result
  ) async rethrows -> Result {
    let finished = Finished()
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds(limit)) {
      guard !finished.flag.load(ordering: .acquiring) else { return }
      FileHandle.standardError.write(
        Data("HangGuard: \(name) did not finish within \(limit); ending the test process\n".utf8))
      exit(exitStatus)
    }
    defer { finished.flag.store(true, ordering: .releasing) }
    return try await body()
  }

  /// Whether the guarded test has finished.
  private final class Finished: Sendable {
    let flag = Atomic<Bool>(false)
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}

extension Trait where Self == HangGuard {
  /// Ends the process when a test of the suite hangs: six minutes, a minute past the suites'
  /// five-minute `.timeLimit`.
  public static var hangGuard: HangGuard { HangGuard(limit: .seconds(360)) }

  /// Ends the process when a test hangs for `limit`.
  public static func hangGuard(after limit: Duration) -> HangGuard { HangGuard(limit: limit) }
}
