import QueueWorkloads
import Testing

@testable import QueueTestingEngine

/// The trace keeps `ran` events in compact records and every other event whole; what it hands
/// back must be exactly what went in.
@Suite("Trace storage", .timeLimit(.minutes(5)), .hangGuard)
struct TraceStorageTests {
  static let mixed: [Trace.Event] = [
    Trace.Event(step: 1, task: 1, kind: .ran(.global), virtualTime: 0),
    Trace.Event(step: 1, task: 1, kind: .mark("a"), virtualTime: 0),
    Trace.Event(step: 2, task: 2, kind: .ran(.main), virtualTime: 5),
    Trace.Event(
      step: 2, task: 2, kind: .enqueued(QueueItem(queue: 1, queueName: "q", kind: .fifo, number: 3), waiting: true),
      virtualTime: 5),
    Trace.Event(step: 3, task: 3, kind: .ran(.timer), virtualTime: 3_600_000_000_000),
    // Numbers that do not fit a compact record: kept whole.
    Trace.Event(step: 4, task: 3, kind: .ran(.global), virtualTime: 1 << 60),
    Trace.Event(step: 5_000_000_000, task: 1, kind: .ran(.global), virtualTime: 1 << 60),
    Trace.Event(step: 5_000_000_001, task: 1 << 33, kind: .ran(.main), virtualTime: 1 << 60),
    Trace.Event(step: 5_000_000_001, task: 4, kind: .waits("gate"), virtualTime: 1 << 60),
    Trace.Event(step: 5_000_000_002, task: 4, kind: .ran(.global), virtualTime: 7),
  ]

  @Test("Events come back exactly as appended")
  func roundTrip() {
    let trace = Trace(events: Self.mixed)
    #expect(trace.events == Self.mixed)
    #expect(trace.eventCount == Self.mixed.count)
    #expect(trace.stepCount == Self.mixed.filter { if case .ran = $0.kind { true } else { false } }.count)
  }

  /// The driver's fast path for `ran` events stores and hashes them exactly as `append` does,
  /// including a virtual time too large for a compact record.
  @Test("appendRan is append of a ran event")
  func appendRanMatchesAppend() {
    var fast = Trace()
    var slow = Trace()
    let ran: [(task: Int, source: Trace.Event.Source, time: UInt64)] = [
      (1, .global, 0), (2, .main, 5), (3, .timer, 3_600_000_000_000), (4, .global, 1 << 60), (1 << 33, .main, 9),
    ]
    for (index, event) in ran.enumerated() {
      fast.appendRan(task: event.task, source: event.source, virtualTime: event.time)
      slow.append(Trace.Event(step: index + 1, task: event.task, kind: .ran(event.source), virtualTime: event.time))
    }
    #expect(fast.events == slow.events)
    #expect(fast.hash == slow.hash)
    #expect(fast.stepCount == ran.count)
  }

  /// A long run's shape: thousands of `ran` events over several storage chunks, virtual time
  /// moving now and then, other events in between, and a task id too large for a compact word.
  @Test("A long trace comes back exactly, across chunks and time changes")
  func longTrace() {
    var events: [Trace.Event] = []
    var step = 0
    for index in 0..<10_000 {
      step += 1
      let task = index == 7_000 ? 1 << 31 : index % 7 + 1
      let source: Trace.Event.Source = index % 3 == 0 ? .main : index % 5 == 0 ? .timer : .global
      events.append(
        Trace.Event(step: step, task: task, kind: .ran(source), virtualTime: UInt64(index / 1_000) * 1_000_000))
      if index % 997 == 0 {
        events.append(
          Trace.Event(step: step, task: task, kind: .mark("m\(index)"), virtualTime: UInt64(index / 1_000) * 1_000_000))
      }
    }
    var fast = Trace()
    for event in events {
      if case .ran(let source) = event.kind {
        fast.appendRan(task: event.task, source: source, virtualTime: event.virtualTime)
      } else {
        fast.append(event)
      }
    }
    let slow = Trace(events: events)
    #expect(slow.events == events)
    #expect(fast.events == slow.events)
    #expect(fast.hash == slow.hash)
    #expect(fast == slow)
    #expect(fast.stepCount == 10_000)
    for count in [0, 1, 10, 2_999, 10_009, 20_000] {
      #expect(fast.events(last: count) == Array(slow.events.suffix(count)), "last \(count)")
    }
  }

  @Test("The last k events are the suffix, for every k")
  func suffixes() {
    let trace = Trace(events: Self.mixed)
    for count in 0...(Self.mixed.count + 2) {
      #expect(trace.events(last: count) == Array(Self.mixed.suffix(count)), "last \(count)")
    }
  }

  @Test("Traces of the same events are equal and hash alike; a different event changes both")
  func equalityAndHash() {
    let a = Trace(events: Self.mixed)
    let b = Trace(events: Self.mixed)
    #expect(a == b)
    #expect(a.hash == b.hash)
    var changed = Self.mixed
    changed[2].virtualTime = 6
    let c = Trace(events: changed)
    #expect(c != a)
    #expect(c.hash != a.hash)
  }
}
