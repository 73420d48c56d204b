/// The heap of ``PCTStrategy``: runnable jobs by priority, highest first, then oldest first.
///
/// A value type over a buffer of plain entries, copied on write: unoptimized (debug) builds call
/// an array's element accessors as generic functions, several per level of the heap, on the path
/// every step of a run takes; a pointer's accessors are inlined even there.
struct PriorityHeap: Sendable {
  /// A runnable job with the priority its task had when it was pushed.
  struct Entry: Sendable, Equatable {
    var priority: Int
    var id: RunnableJob.ID
    /// The task whose priority ranks the job.
    var task: Int

    /// Whether this entry comes out before `other`: higher priority, then older.
    @inline(__always)
    func precedes(_ other: Entry) -> Bool {
      priority != other.priority ? priority > other.priority : id < other.id
    }
  }

  // Safety proof for `@unchecked Sendable`: a storage is mutated only through a heap that holds
  // the only reference to it (every mutating method copies it first otherwise), so a storage
  // that two heaps, or two threads, can reach is never written.
  private final class Storage: @unchecked Sendable {
    var entries: UnsafeMutablePointer<Entry>
    var count = 0
    var capacity: Int

    init(capacity: Int) {
      self.capacity = capacity
      entries = .allocate(capacity: capacity)
    }

    func copy() -> Storage {
      let copy = Storage(capacity: capacity)
      copy.entries.initialize(from: entries, count: count)
      copy.count = count
      return copy
    }

    deinit {
      entries.deallocate()
    }
  }

  private var storage = Storage(capacity: 64)

  var isEmpty: Bool { storage.count == 0 }

  /// The first entry, if any.
  var top: Entry? { storage.count == 0 ? nil : storage.entries[0] }

  /// Empties the heap.
  mutating func removeAll() {
    makeUnique()
    storage.count = 0
  }

  mutating func push(_ entry: Entry) {
    makeUnique()
    let store = storage
    if store.count == store.capacity {
      let larger = UnsafeMutablePointer<Entry>.allocate(capacity: store.capacity * 2)
      larger.moveInitialize(from: store.entries, count: store.count)
      store.entries.deallocate()
      store.entries = larger
      store.capacity *= 2
    }
    let entries = store.entries
    // Sift up through a hole: one write per level.
    var child = store.count
    store.count += 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard entry.precedes(entries[parent]) else { break }
      entries[child] = entries[parent]
      child = parent
    }
    entries[child] = entry
  }

  /// Removes the first entry (the heap is not empty).
  mutating func popTop() {
    makeUnique()
    let store = storage
    let entries = store.entries
    store.count -= 1
    let count = store.count
    guard count > 0 else { return }
    let last = entries[count]
    // Sift the last entry down from the root through a hole.
    var parent = 0
    while true {
      let left = 2 * parent + 1
      guard left < count else { break }
      let right = left + 1
      let child = right < count && entries[right].precedes(entries[left]) ? right : left
      guard entries[child].precedes(last) else { break }
      entries[parent] = entries[child]
      parent = child
    }
    entries[parent] = last
  }

  private mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
  }
}
