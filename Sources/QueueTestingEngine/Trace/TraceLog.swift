/// A trace's events in order, `ran` events in 4 bytes each.
///
/// A run records one event per job, almost all of them `ran`, and a long run records a million.
/// The step of the n-th `ran` event is n, and its virtual time is that of the latest time mark
/// (virtual time changes only when timers come due), so a `ran` event is one 32-bit word: its
/// source and task. A time mark is a word followed by the time in two words. Any other event,
/// or a `ran` event whose step or task does not fit that form (tests build traces with arbitrary
/// steps), is kept whole in `extras` behind a word that marks its place. Words are only read
/// front to back.
struct TraceLog: Equatable, Sendable {
  private var words = ChunkedLog<UInt32>()
  private var extras: [Trace.Event] = []
  /// The virtual time of the latest time mark.
  private var time: UInt64 = 0
  /// How many `ran` events the log holds; the next one stored as a word is step `ranCount + 1`.
  private(set) var ranCount = 0
  /// How many events the log holds.
  private(set) var count = 0

  // The top two bits of a word: the source of a `ran` event (0...2), or 3 for a special word
  // whose low bits say which.
  private static let taskMask: UInt32 = (1 << 30) - 1
  private static let special: UInt32 = 3 << 30
  private static let extraWord: UInt32 = special
  private static let timeMarkWord: UInt32 = special | 1

  /// Creates an empty log.
  init() {}

  /// Appends a `ran` event of step `step`.
  @inline(__always)
  mutating func appendRan(step: Int, task: Int, source: Trace.Event.Source, virtualTime: UInt64) {
    ranCount += 1
    guard step == ranCount, task >= 0, task <= Self.taskMask else {
      appendWhole(Trace.Event(step: step, task: task, kind: .ran(source), virtualTime: virtualTime))
      return
    }
    if virtualTime != time { markTime(virtualTime) }
    words.append(UInt32(source.rawValue) << 30 | UInt32(truncatingIfNeeded: task))
    count += 1
  }

  /// Appends any event.
  mutating func append(_ event: Trace.Event) {
    if case .ran(let source) = event.kind {
      appendRan(step: event.step, task: event.task, source: source, virtualTime: event.virtualTime)
    } else {
      appendWhole(event)
    }
  }

  private mutating func appendWhole(_ event: Trace.Event) {
    words.append(Self.extraWord)
    extras.append(event)
    count += 1
  }

  private mutating func markTime(_ virtualTime: UInt64) {
    words.append(Self.timeMarkWord)
    words.append(UInt32(truncatingIfNeeded: virtualTime >> 32))
    words.append(UInt32(truncatingIfNeeded: virtualTime))
    time = virtualTime
  }

  /// All events, in order.
  var events: [Trace.Event] { events(last: count) }

  /// The last `count` events, in order (all of them when there are fewer).
  func events(last wanted: Int) -> [Trace.Event] {
    let skipped = count - min(max(wanted, 0), count)
    var result: [Trace.Event] = []
    result.reserveCapacity(count - skipped)
    var index = 0
    var step = 0
    var time: UInt64 = 0
    var nextExtra = 0
    var words = self.words.makeIterator()
    while let word = words.next() {
      if word == Self.timeMarkWord {
        let high = UInt64(words.next() ?? 0)
        let low = UInt64(words.next() ?? 0)
        time = high << 32 | low
        continue
      }
      if word == Self.extraWord {
        let event = extras[nextExtra]
        if case .ran = event.kind { step += 1 }
        if index >= skipped { result.append(event) }
        nextExtra += 1
      } else {
        step += 1
        if index >= skipped {
          // A word is only written for a valid source (see `appendRan`).
          let source = Trace.Event.Source(rawValue: UInt8(word >> 30)) ?? .global
          result.append(
            Trace.Event(step: step, task: Int(word & Self.taskMask), kind: .ran(source), virtualTime: time))
        }
      }
      index += 1
    }
    return result
  }
}
