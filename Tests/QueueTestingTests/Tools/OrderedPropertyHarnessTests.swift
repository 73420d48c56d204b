#if compiler(>=6.3)
  import AsyncQueue
  @testable import QueueTesting
  @testable import QueueTestingEngine
  import Testing
  import QueueWorkloads

  /// `OrderedProperty` under the controlled executor, against a naive property that sends each
  /// change through a `Task` of its own.
  @Suite("OrderedProperty under controlled schedules", .timeLimit(.minutes(5)), .hangGuard)
  struct OrderedPropertyHarnessTests {
    /// Three tasks write concurrently; callbacks and the `changes()` sequence see every change
    /// once, in write order (each change's old value is the previous change's new value), on
    /// every schedule.
    @Test(.controlledScheduling(.random(100, seed: 21)))
    func notificationsFollowWriteOrderOnEverySchedule() async {
      let property = OrderedProperty(0)
      let received = LockedState<[OrderedPropertyChange<Int>]>([])
      let token = property.observe { change in
        _ = property.value
        received.withLock { $0.append(change) }
      }
      let stream = property.changes()
      let consumer = Task {
        var seen: [OrderedPropertyChange<Int>] = []
        for await change in stream {
          seen.append(change)
          if seen.count == 9 { break }
        }
        return seen
      }
      await withTaskGroup(of: Void.self) { group in
        for writer in 1...3 {
          group.addTask {
            for step in 1...3 {
              property.value = writer * 10 + step
              await Task.yield()
            }
          }
        }
      }
      token.cancel()
      let changes = received.withLock { $0 }
      #expect(isWriteOrder(changes, final: property.value))
      #expect(await consumer.value == changes)
    }

    /// The naive property (lock, store, then one `Task` per notification) delivers out of write
    /// order under one of the first schedules, and the same check catches it.
    @available(ExecutorHooks 1.0, *)
    @Test func aTaskPerChangeIsCaughtReordering() async {
      let report = await ControlledScheduling(.random(100, seed: 21)).run {
        let property = TaskPerChangeProperty(0)
        let received = LockedState<[OrderedPropertyChange<Int>]>([])
        let delivered = TestGate("all delivered")
        property.observe { change in
          let count = received.withLock {
            $0.append(change)
            return $0.count
          }
          if count == 9 { delivered.open() }
        }
        await withTaskGroup(of: Void.self) { group in
          for writer in 1...3 {
            group.addTask {
              for step in 1...3 {
                property.set(writer * 10 + step)
                await Task.yield()
              }
            }
          }
        }
        await delivered.wait()
        if !isWriteOrder(received.withLock { $0 }, final: property.value) { throw OutOfWriteOrder() }
      }
      let failure = report.failure
      #expect(failure?.problem == .threw("OutOfWriteOrder()"))
      #expect((failure?.scheduleNumber ?? .max) <= 10)
    }
  }

  struct OutOfWriteOrder: Error {}

  /// Whether `changes` are the writes in order: consecutive versions from 1, each old value the
  /// previous new value, ending at `final`.
  func isWriteOrder(_ changes: [OrderedPropertyChange<Int>], final: Int) -> Bool {
    changes.map(\.version) == Array(1...UInt64(changes.count))
      && zip(changes, changes.dropFirst()).allSatisfy { $0.newValue == $1.oldValue }
      && changes.last?.newValue == final
  }

  /// The naive design: the write is locked, each notification goes out in a task of its own.
  final class TaskPerChangeProperty: Sendable {
    private let state:
      LockedState<(value: Int, version: UInt64, observers: [@Sendable (OrderedPropertyChange<Int>) -> Void])>

    init(_ value: Int) {
      state = LockedState((value, 0, []))
    }

    var value: Int { state.withLock(\.value) }

    func observe(_ observer: @escaping @Sendable (OrderedPropertyChange<Int>) -> Void) {
      state.withLock { $0.observers.append(observer) }
    }

    func set(_ newValue: Int) {
      let (change, observers) = state.withLock { state in
        state.version += 1
        defer { state.value = newValue }
        return (
          OrderedPropertyChange(oldValue: state.value, newValue: newValue, version: state.version), state.observers
        )
      }
      for observer in observers { Task { observer(change) } }
    }
  }
#endif
