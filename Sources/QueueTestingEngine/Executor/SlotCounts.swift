import Foundation

/// A Fenwick tree counting marked slots among a fixed number of them: marking, unmarking, the
/// count before a slot, and the slot of the n-th marked one, each in O(log capacity).
///
/// Raw memory of plain integers: on the controlled executor's hottest path, unoptimized (debug)
/// builds would otherwise pay a uniqueness and bounds check per access. The owner frees it with
/// ``deallocate()``.
struct SlotCounts {
  /// `tree[i]` (1-based) counts the marked slots `i - lowbit(i) ..< i`.
  private var tree: UnsafeMutablePointer<Int32>
  /// A power of two.
  private(set) var capacity: Int

  init(capacity: Int) {
    precondition(capacity > 0 && capacity & (capacity - 1) == 0, "SlotCounts: capacity must be a power of two")
    self.capacity = capacity
    tree = .allocate(capacity: capacity + 1)
    tree.initialize(repeating: 0, count: capacity + 1)
  }

  func deallocate() {
    tree.deallocate()
  }

  /// Adds `delta` (1: mark, -1: unmark) at `slot`.
  @inline(__always)
  func add(_ delta: Int32, atSlot slot: Int) {
    var position = slot + 1
    while position <= capacity {
      tree[position] += delta
      position += position & -position
    }
  }

  /// Marked slots in `0..<slot`.
  @inline(__always)
  func count(before slot: Int) -> Int {
    var sum: Int32 = 0
    var position = slot
    while position > 0 {
      sum += tree[position]
      position &= position - 1
    }
    return Int(sum)
  }

  /// The slot of the marked one at `rank` (0: the first); the caller knows there are more than
  /// `rank` marked slots.
  @inline(__always)
  func slot(ofRank rank: Int) -> Int {
    var position = 0
    var remaining = Int32(rank + 1)
    var step = capacity
    while step > 0 {
      let next = position + step
      if next <= capacity && tree[next] < remaining {
        position = next
        remaining -= tree[next]
      }
      step >>= 1
    }
    return position
  }

  /// Clears every mark, with room for `capacity` slots (a power of two, at least the current).
  mutating func reset(capacity newCapacity: Int) {
    if newCapacity != capacity {
      tree.deallocate()
      capacity = newCapacity
      tree = .allocate(capacity: capacity + 1)
      tree.initialize(repeating: 0, count: capacity + 1)
    } else {
      // `memset`, not `update(repeating:count:)`: unoptimized builds call a generic value witness
      // per element for the latter, and this runs twice per run.
      memset(tree, 0, (capacity + 1) * MemoryLayout<Int32>.stride)
    }
  }

  /// Rebuilds the counts from `isMarked` for slots `0..<used`, in O(capacity).
  func rebuild(used: Int, isMarked: (Int) -> Bool) {
    memset(tree, 0, (capacity + 1) * MemoryLayout<Int32>.stride)
    for slot in 0..<used where isMarked(slot) { tree[slot + 1] = 1 }
    for position in 1...capacity {
      let parent = position + (position & -position)
      if parent <= capacity { tree[parent] += tree[position] }
    }
  }
}
