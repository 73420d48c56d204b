/// Holders waiting for numbered places in line that are granted in number order: the part of
/// ``SerialDrainStateMachine`` that remembers who parked before their turn.
///
/// Slot `start + k` holds the holder of the place `k` places after the next one to be granted
/// (nil: that holder has not parked). Granting takes the front, so parking and granting are
/// amortized O(1) without hashing: a dictionary keyed by place would hash under the queue's lock
/// on every task that waits by a place.
///
/// A value type with no locking of its own; generic over the holder so that tests can drive it
/// with plain values.
@usableFromInline
struct PlaceWaitList<Holder> {
  @usableFromInline var slots: [Holder?] = []
  /// The index in `slots` of the next place to be granted.
  @usableFromInline var start = 0

  /// The most slots an emptied list keeps allocated: after a burst of a million waiting tasks,
  /// an idle queue gives the memory back.
  @inlinable static var keptCapacity: Int { 64 }

  @usableFromInline init() {}

  /// Whether no holder is parked.
  var isEmpty: Bool { slots[start...].allSatisfy { $0 == nil } }

  /// How many slots are allocated (for tests of the memory bound).
  var allocatedSlots: Int { slots.capacity }

  /// Parks `holder` for the place `distance` places after the next one to be granted (0: the
  /// next one). Each place parks at most once.
  mutating func park(_ holder: Holder, distance: Int) {
    precondition(distance >= 0, "PlaceWaitList: a granted place cannot park")
    let index = start + distance
    if index >= slots.count {
      slots.append(contentsOf: repeatElement(nil, count: index - slots.count + 1))
    }
    precondition(slots[index] == nil, "PlaceWaitList: a place parked twice")
    slots[index] = holder
  }

  /// Grants the next place: returns its holder if it parked, and moves on to the following place.
  mutating func grantNext() -> Holder? {
    guard start < slots.count else { return nil }
    let holder = slots[start]
    slots[start] = nil
    start += 1
    if start == slots.count {
      slots.removeAll(keepingCapacity: slots.capacity <= Self.keptCapacity)
      start = 0
    } else if start >= Self.keptCapacity && start * 2 >= slots.count {
      // Drop the granted front once it is at least half the array: each slot moves at most once
      // per halving, so a grant stays amortized O(1).
      slots.removeSubrange(0..<start)
      start = 0
    }
    return holder
  }
}

extension PlaceWaitList: Sendable where Holder: Sendable {}
