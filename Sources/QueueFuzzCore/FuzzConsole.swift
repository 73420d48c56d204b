import Foundation

/// Where a command writes: standard output and error, or buffers in tests.
public struct FuzzConsole: Sendable {
  let out: @Sendable (String) -> Void
  let err: @Sendable (String) -> Void

  /// Writes to a pair of sinks (one line per call).
  public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
    self.out = out
    self.err = err
  }

  /// The process's standard output and error.
  public static let standard = FuzzConsole(
    out: { line in FileHandle.standardOutput.write(Data((line + "\n").utf8)) },
    err: { line in FileHandle.standardError.write(Data((line + "\n").utf8)) })
}
