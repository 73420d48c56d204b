import QueueWorkloads
import Testing

@testable import AsyncQueue

@Suite("AsyncSemaphoreStateMachine", .timeLimit(.minutes(5)), .hangGuard)
struct AsyncSemaphoreStateMachineTests {
  /// Waiters are wait numbers, so that the test can tell whom a signal or a cancellation resumes.
  typealias Machine = AsyncSemaphoreStateMachine<Int>

  /// One wait as the test sees it.
  enum Wait: Hashable {
    /// Handed an id; its waiter has not come to the line.
    case coming(id: UInt64, cancelled: Bool)
    /// Handed a permit by a signal before its waiter came.
    case grantedComing(id: UInt64, cancelled: Bool)
    case inLine(id: UInt64, cancelled: Bool)
    /// Took a permit (at once, or from a signal).
    case holds
    /// Ended with a cancellation, without a permit.
    case cancelled
    /// Gave its permit back.
    case done
  }

  /// The semaphore as the test drives it.
  struct World {
    var machine: Machine
    var waits: [Wait] = []
    let initial: Int
    var extraSignals = 0
    var lineOrder: [Int] = []
    var servedOrder: [Int] = []

    init(permits: Int) {
      machine = Machine(permits: permits)
      initial = permits
    }

    enum Move: CustomStringConvertible {
      case wait
      case come(Int)
      case cancel(Int)
      case release(Int)
      case extraSignal

      var description: String {
        switch self {
        case .wait: "wait"
        case .come(let index): "come \(index)"
        case .cancel(let index): "cancel \(index)"
        case .release(let index): "release \(index)"
        case .extraSignal: "signal"
        }
      }
    }

    func moves(maxWaits: Int) -> [Move] {
      var moves: [Move] = []
      if waits.count < maxWaits { moves.append(.wait) }
      if extraSignals < 1 { moves.append(.extraSignal) }
      for (index, wait) in waits.enumerated() {
        switch wait {
        case .coming(_, let cancelled), .grantedComing(_, let cancelled):
          moves.append(.come(index))
          if !cancelled { moves.append(.cancel(index)) }
        case .inLine(_, let cancelled):
          if !cancelled { moves.append(.cancel(index)) }
        case .holds:
          moves.append(.release(index))
          // A cancellation that comes after the permit changes nothing.
          moves.append(.cancel(index))
        case .cancelled, .done:
          break
        }
      }
      return moves
    }

    /// A signal: its permit goes to the oldest wait that still waits (coming or in line), or
    /// goes free.
    mutating func signal() {
      let oldest = waits.indices.first { index in
        switch waits[index] {
        case .coming(_, false), .inLine(_, false): true
        default: false
        }
      }
      switch machine.signal() {
      case .resume(let index):
        #expect(index == oldest, "a signal resumed wait \(index), not the oldest, \(String(describing: oldest))")
        waits[index] = .holds
        servedOrder.append(index)
      case .grantedBeforeComing(let id):
        guard let oldest, case .coming(id, false) = waits[oldest] else {
          Issue.record("a signal granted wait id \(id), not the oldest, \(String(describing: oldest))")
          return
        }
        waits[oldest] = .grantedComing(id: id, cancelled: false)
        servedOrder.append(oldest)
      case .freed:
        #expect(oldest == nil, "a permit went free while wait \(oldest ?? -1) waits")
      }
    }

    mutating func play(_ move: Move) {
      switch move {
      case .wait:
        switch machine.wait() {
        case .acquired:
          #expect(!waits.contains { if case .coming(_, false) = $0 { true } else { false } })
          waits.append(.holds)
        case .wait(let id):
          waits.append(.coming(id: id, cancelled: false))
          lineOrder.append(waits.count - 1)
        }
      case .come(let index):
        switch waits[index] {
        case .coming(let id, let cancelled):
          switch machine.enqueue(index, id: id) {
          case .waits:
            #expect(!cancelled, "a waiter whose wait was cancelled went in line")
            waits[index] = .inLine(id: id, cancelled: false)
          case .granted:
            Issue.record("wait \(index) was granted a permit no signal gave it")
          case .cancelled:
            #expect(cancelled, "a waiter was told it was cancelled, though it was not")
            waits[index] = .cancelled
          }
        case .grantedComing(let id, _):
          // Granted first: it holds the permit, cancelled or not.
          #expect(machine.enqueue(index, id: id) == .granted, "wait \(index) lost the permit a signal gave it")
          waits[index] = .holds
        default:
          return
        }
      case .cancel(let index):
        switch waits[index] {
        case .coming(let id, _):
          #expect(machine.cancel(id) == nil)
          waits[index] = .coming(id: id, cancelled: true)
        case .grantedComing(let id, _):
          #expect(machine.cancel(id) == nil)
          waits[index] = .grantedComing(id: id, cancelled: true)
        case .inLine(let id, _):
          if let resumed = machine.cancel(id) {
            #expect(resumed == index)
            waits[index] = .cancelled
          } else {
            Issue.record("a cancellation did not resume wait \(index), which was in line")
          }
        case .holds:
          // Its id, if it had one, no longer resumes anything.
          break
        case .cancelled, .done:
          break
        }
      case .release(let index):
        waits[index] = .done
        signal()
      case .extraSignal:
        extraSignals += 1
        signal()
      }
    }

    /// No permit lost or doubled; no free permit while a waiter is in line; signals serve the
    /// line in order.
    func check(_ path: [Move]) {
      let holding = waits.filter {
        if case .holds = $0 { true } else if case .grantedComing = $0 { true } else { false }
      }
      .count
      #expect(machine.freePermits + holding == initial + extraSignals, "permits not conserved after \(path)")
      let inLine = waits.filter { if case .inLine(_, false) = $0 { true } else { false } }.count
      let coming = waits.filter { if case .coming(_, false) = $0 { true } else { false } }.count
      #expect(machine.waiterCount == inLine, "after \(path)")
      if inLine + coming > 0 {
        #expect(machine.freePermits == 0, "a permit free while waiters wait, after \(path)")
      }
      let servedInLineOrder = lineOrder.filter { servedOrder.contains($0) }
      #expect(servedOrder == servedInLineOrder, "signals served the line out of order after \(path)")
    }
  }

  /// Every sequence of up to four waits, their cancellations (before, while and after waiting),
  /// releases and an extra signal, from 0 and 1 free permits.
  @Test(arguments: [0, 1])
  func everySequenceKeepsThePermits(permits: Int) {
    var seen: Set<[Wait]> = []
    var moves = 0
    func explore(_ world: World, _ path: [World.Move]) {
      guard seen.insert(world.waits + [world.extraSignals == 0 ? .done : .holds]).inserted else { return }
      for move in world.moves(maxWaits: 4) {
        var next = world
        next.play(move)
        next.check(path + [move])
        moves += 1
        explore(next, path + [move])
      }
    }
    explore(World(permits: permits), [])
    #expect(seen.count > 500, "\(seen.count) states")
    #expect(moves > seen.count)
  }

  /// Signals wake the waiters in the order they came; cancelled ones are skipped.
  @Test func signalsWakeWaitersInOrderSkippingCancelled() {
    var machine = Machine(permits: 0)
    var ids: [UInt64] = []
    for waiter in 0..<5 {
      guard case .wait(let id) = machine.wait() else {
        Issue.record("a wait took a permit from an empty semaphore")
        return
      }
      ids.append(id)
      #expect(machine.enqueue(waiter, id: id) == .waits)
    }
    #expect(machine.cancel(ids[1]) == 1)
    #expect(machine.cancel(ids[3]) == 3)
    for expected in [0, 2, 4] {
      guard case .resume(let waiter) = machine.signal() else {
        Issue.record("a signal resumed no one")
        return
      }
      #expect(waiter == expected)
    }
    guard case .freed = machine.signal() else {
      Issue.record("a signal with no one in line did not free its permit")
      return
    }
    #expect(machine.freePermits == 1)
    #expect(machine.wait() == .acquired)
  }
}
