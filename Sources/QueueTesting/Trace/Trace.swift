/// What a controlled run did, step by step, with run-local task ids.
///
/// Task ids are numbered from 1 in the order the run first saw each task, so a trace does not
/// depend on the process's history; the hash is FNV-1a over the events and is stable across
/// processes, debug and release.
public struct Trace: Equatable, Sendable {
  /// One step: a job of a task ran.
  public struct Event: Equatable, Sendable {
    /// Where a job came from.
    public enum Source: UInt8, Sendable {
      /// The default (global) executor: new tasks, resumptions, `Task.yield()`.
      case global
      /// The main actor.
      case main
      /// A timer that came due in virtual time (`Task.sleep`).
      case timer
    }

    /// The run-local id of the job's task (0 for a job that is not a task).
    public var task: Int
    /// Where the job came from.
    public var source: Source
    /// Virtual time in nanoseconds when the job ran.
    public var virtualTime: UInt64
  }

  /// The steps, in order.
  public private(set) var events: [Event] = []
  /// The FNV-1a hash of the events.
  public private(set) var hash: UInt64 = 0xcbf2_9ce4_8422_2325

  /// Creates an empty trace.
  public init() {}

  mutating func append(_ event: Event) {
    events.append(event)
    for byte in [UInt64(event.source.rawValue), UInt64(event.task), event.virtualTime] {
      hash = (hash ^ byte) &* 0x0000_0100_0000_01b3
    }
  }

  /// The last `count` steps as lines, for reports.
  public func lastSteps(_ count: Int) -> [String] {
    events.suffix(count).enumerated().map { offset, event in
      let step = events.count - min(count, events.count) + offset + 1
      return "step \(step): task \(event.task) (\(event.source)) at \(event.virtualTime) ns"
    }
  }
}
