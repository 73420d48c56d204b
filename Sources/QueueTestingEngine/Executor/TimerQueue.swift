#if compiler(>=6.3)
  /// A run's timers (the jobs `Task.sleep` and delayed enqueues hand the harness), ordered by
  /// deadline and then by the order they were set, in a binary heap; and the delay each took,
  /// which the run's schedule records.
  ///
  /// Made anew for each run (see ``RunState/begin(cancellationTargets:outsideWorkTimeout:replayedTimerDelays:)``),
  /// so nothing of a run's timers outlives it.
  @available(ExecutorHooks 1.0, *)
  struct TimerQueue {
    struct Timer {
      let deadline: UInt64
      let sequence: UInt64
      let job: HeldJob

      /// Whether this timer fires before `other`: an earlier deadline, then set earlier.
      @inline(__always)
      func precedes(_ other: Timer) -> Bool {
        deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
      }
    }

    /// Virtual delays are rounded up to this quantum (1 ms), so a sleep's deadline does not
    /// depend on the real microseconds that passed while it was set up.
    static let quantum: UInt64 = 1_000_000

    /// Virtual time that never comes: a timer whose deadline would lie at or past the end of
    /// virtual time (`UInt64.max` nanoseconds, 584 years) never fires, so a task sleeping "until
    /// cancelled" waits for its cancellation, and one that nothing cancels is reported stuck.
    static let never = UInt64.max

    private var heap: [Timer] = []
    private var setSoFar: UInt64 = 0
    /// Each timer's delay as the run took it (whole milliseconds, nil: never), in the order the
    /// timers were set.
    private(set) var delays: [UInt64?] = []
    /// The delays a replay takes instead of measuring (see `ScheduleStrategy/replayedTimerDelays`).
    private let replayedDelays: [UInt64?]

    /// No timers; a replay passes the delays its run took.
    init(replayedDelays: [UInt64?] = []) {
      self.replayedDelays = replayedDelays
    }

    var isEmpty: Bool { heap.isEmpty }

    /// The earliest deadline, if any timer is set.
    var earliestDeadline: UInt64? { heap.first?.deadline }

    /// How many timers never fire.
    var neverFiring: Int { heap.count { $0.deadline == Self.never } }

    /// Sets a timer for `job`, `measured` nanoseconds after `now`: a replay takes the delay its
    /// run took, a run the measured one rounded up to whole milliseconds, and records it.
    mutating func set(_ job: HeldJob, measured: UInt64, now: UInt64) {
      let delay: UInt64? =
        delays.count < replayedDelays.count ? replayedDelays[delays.count] : Self.wholeMilliseconds(after: measured)
      delays.append(delay)
      let deadline =
        delay.map { milliseconds in
          let (nanoseconds, overflow) = milliseconds.multipliedReportingOverflow(by: Self.quantum)
          return overflow ? Self.never : Self.deadline(after: nanoseconds, from: now)
        } ?? Self.never
      push(Timer(deadline: deadline, sequence: setSoFar, job: job))
      setSoFar += 1
    }

    /// Takes the timers due at `deadline` (the earliest), in the order they were set.
    mutating func takeDue(at deadline: UInt64) -> [HeldJob] {
      var due: [HeldJob] = []
      while let first = heap.first, first.deadline == deadline {
        due.append(first.job)
        popFirst()
      }
      return due
    }

    /// Takes every timer, in the order they were set, each with its deadline.
    mutating func removeAllWithDeadlines() -> [(job: HeldJob, deadline: UInt64)] {
      let all = heap.sorted { $0.sequence < $1.sequence }.map { ($0.job, $0.deadline) }
      heap = []
      return all
    }

    /// Takes every timer, in the order they were set.
    mutating func removeAll() -> [HeldJob] {
      let all = heap.sorted { $0.sequence < $1.sequence }.map(\.job)
      heap = []
      return all
    }

    /// A measured delay in nanoseconds as whole milliseconds, rounded up; nil when the timer
    /// never fires (the delay reaches the end of virtual time from any point).
    static func wholeMilliseconds(after delay: UInt64) -> UInt64? {
      guard delay < never - quantum else { return nil }
      return (delay + quantum - 1) / quantum
    }

    /// The deadline of a timer set `delay` nanoseconds after `now`, rounded up to the quantum;
    /// ``never`` when that lies past the end of virtual time.
    static func deadline(after delay: UInt64, from now: UInt64) -> UInt64 {
      let remainder = delay % quantum
      let (rounded, overflow) = delay.addingReportingOverflow(remainder == 0 ? 0 : quantum - remainder)
      guard !overflow else { return never }
      let (deadline, late) = now.addingReportingOverflow(rounded)
      return late || deadline == never ? never : deadline
    }

    private mutating func push(_ timer: Timer) {
      heap.append(timer)
      var child = heap.count - 1
      while child > 0 {
        let parent = (child - 1) / 2
        guard heap[child].precedes(heap[parent]) else { break }
        heap.swapAt(child, parent)
        child = parent
      }
    }

    private mutating func popFirst() {
      let last = heap.removeLast()
      guard !heap.isEmpty else { return }
      heap[0] = last
      var parent = 0
      while true {
        let left = 2 * parent + 1
        guard left < heap.count else { break }
        let right = left + 1
        let first = right < heap.count && heap[right].precedes(heap[left]) ? right : left
        guard heap[first].precedes(heap[parent]) else { break }
        heap.swapAt(first, parent)
        parent = first
      }
    }
  }
#endif
