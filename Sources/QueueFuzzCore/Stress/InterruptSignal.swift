import Foundation
import Synchronization

/// Ctrl-C, and SIGTERM (what `timeout` and CI cancellation send), for a session: the first one
/// sets a flag that the session reads between scenarios, so it stops cleanly, prints its summary
/// and writes its report; a second one ends the process at once (exit status 130), for a session
/// stuck in a long shrink.
enum InterruptSignal {
  /// The signals handled alike.
  static let signals: [Int32] = [SIGINT, SIGTERM]

  /// Set by the signal handler; an atomic store is async-signal-safe where a lock is not.
  private static let received = Atomic<Bool>(false)

  /// Whether SIGINT or SIGTERM arrived since ``install()``.
  static var wasReceived: Bool { received.load(ordering: .relaxed) }

  /// The last of those signals to arrive (0: none yet).
  private static let lastSignal = Atomic<Int32>(0)

  /// How a summary names what stopped the session: "SIGTERM", else "Ctrl-C" (also when a test
  /// stands in for the signal).
  static var stopName: String { lastSignal.load(ordering: .relaxed) == SIGTERM ? "SIGTERM" : "Ctrl-C" }

  /// Installs the handler.
  static func install() {
    received.store(false, ordering: .relaxed)
    lastSignal.store(0, ordering: .relaxed)
    // A parent process may have blocked these signals for this thread (test runners that spawn
    // child processes do); a handler that can never run would make Ctrl-C do nothing.
    var set = sigset_t()
    sigemptyset(&set)
    for signal in signals { sigaddset(&set, signal) }
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    for number in signals {
      signal(number) { number in
        InterruptSignal.lastSignal.store(number, ordering: .relaxed)
        if InterruptSignal.received.exchange(true, ordering: .relaxed) { _exit(130) }
      }
    }
  }

  /// Restores the default handling.
  static func uninstall() {
    for number in signals { signal(number, SIG_DFL) }
  }
}
