import Foundation
import Synchronization

/// Where a command writes: standard output and error, or buffers in tests.
package struct FuzzConsole: Sendable {
  let out: @Sendable (String) -> Void
  let err: @Sendable (String) -> Void
  /// Replaces the live status line; nil when standard output is not a terminal (then commands
  /// print plain progress lines instead).
  let status: (@Sendable (String) -> Void)?

  /// Writes to a pair of sinks (one line per call), and a status line if given.
  package init(
    out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
    status: (@Sendable (String) -> Void)? = nil
  ) {
    self.out = out
    self.err = err
    self.status = status
  }

  /// Whether a status line is on screen (it is cleared before the next line is printed).
  private static let statusShowing = Atomic<Bool>(false)

  private static func write(_ text: String, to handle: FileHandle) {
    if statusShowing.exchange(false, ordering: .relaxed) {
      FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8))
    }
    handle.write(Data(text.utf8))
  }

  /// The process's standard output and error; a live status line when standard output is a
  /// terminal.
  package static let standard = FuzzConsole(
    out: { line in write(line + "\n", to: .standardOutput) },
    err: { line in write(line + "\n", to: .standardError) },
    status: isatty(STDOUT_FILENO) == 1 ? showStatus : nil)

  private static let showStatus: @Sendable (String) -> Void = { line in
    write("\r\u{1B}[K" + line, to: .standardOutput)
    statusShowing.store(true, ordering: .relaxed)
  }
}
