import Foundation
import Synchronization

/// Ctrl-C for a stress session: the first SIGINT sets a flag that the session reads between
/// scenarios, so it stops cleanly and prints its summary; a second one ends the process at once
/// (exit status 130), for a session stuck in a long shrink.
enum InterruptSignal {
  /// Set by the signal handler; an atomic store is async-signal-safe where a lock is not.
  private static let received = Atomic<Bool>(false)

  /// Whether SIGINT arrived since ``install()``.
  static var wasReceived: Bool { received.load(ordering: .relaxed) }

  /// Installs the handler.
  static func install() {
    received.store(false, ordering: .relaxed)
    // A parent process may have blocked SIGINT for this thread (test runners that spawn child
    // processes do); a handler that can never run would make Ctrl-C do nothing.
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    signal(SIGINT) { _ in
      if InterruptSignal.received.exchange(true, ordering: .relaxed) { _exit(130) }
    }
  }

  /// Restores the default handling.
  static func uninstall() {
    signal(SIGINT, SIG_DFL)
  }
}
