import Foundation

/// A value behind an `NSLock`: a pthread mutex, which the thread sanitizer understands
/// (`Synchronization.Mutex` on Linux is invisible to it and gets reported as racing).
// Safety proof for `@unchecked Sendable`: `value` is only reached through `withLock`, which holds
// `lock` for the whole access, and `State: Sendable` lets values cross threads.
package final class Locked<State: Sendable>: @unchecked Sendable {  // safe: proof just above
  private let lock = NSLock()
  private var value: State

  package init(_ value: State) {
    self.value = value
  }

  package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
