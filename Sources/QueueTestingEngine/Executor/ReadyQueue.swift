import Foundation

/// The runnable jobs of a run, oldest first, each with a sequence number that stays its own while
/// it waits: the list a strategy chooses from by index (its age rank).
///
/// Appending a job, taking the job at an index, finding a job's index from its sequence number and
/// finding a task's runnable job all cost O(log n) for the n slots in use, whatever the number of
/// runnable jobs. Slots are kept in the order jobs became runnable and a run job's slot is only
/// marked dead; a Fenwick tree (``SlotCounts``) counts the live ones, so an index is a descent of
/// the tree and a slot's index a prefix count. A second tree counts the live jobs of no task, which
/// may be many at once; a task has at most one runnable job (a task is its own job), found through
/// a table by task id. Full slots are compacted, or doubled when more than half are live, so the
/// cost stays amortized O(log n).
///
/// Storage is raw memory of plain values: on the driver's hottest path, unoptimized (debug)
/// builds would otherwise pay a uniqueness and bounds check per access, and a copy of the queue
/// (a strategy's view, `RunnableJobs`) costs no reference counting. One queue's memory serves
/// every run of the process (each run's state takes it over from the last, see
/// `RunDriver.stateBetweenRuns`), so it is never freed.
struct ReadyQueue {
  /// A runnable job and what the run knows of it.
  struct Entry {
    var held: HeldJob
    /// The job's sequence number: increasing in the order jobs became runnable.
    var sequence: UInt64
    /// The run-local id of the task whose `Task.yield()` this job is (0: not a yield).
    var yieldingTask: Int
    var isLive: Bool
  }

  private var slots: UnsafeMutablePointer<Entry>
  /// Live jobs, by slot.
  private var live: SlotCounts
  /// Live jobs of no task, by slot.
  private var liveWithoutTask: SlotCounts
  /// By run-local task id: the sequence number of the task's runnable job plus one (0: none).
  private var jobOfTask: UnsafeMutablePointer<UInt64>
  private var taskCapacity: Int
  /// Slots in use (live or dead), from 0.
  private var used = 0
  /// Slots from this one on hold consecutive sequence numbers from `sequenceAtRun` (every slot
  /// appended since the last compaction), so that a recent job's slot is found without a search.
  private var runStart = 0
  private var sequenceAtRun: UInt64 = 0
  /// Live jobs.
  private(set) var count = 0
  /// The sequence number the next appended job gets.
  private(set) var nextSequence: UInt64 = 0

  init(capacity: Int = 256) {
    precondition(capacity > 0 && capacity & (capacity - 1) == 0, "ReadyQueue: capacity must be a power of two")
    slots = .allocate(capacity: capacity)
    live = SlotCounts(capacity: capacity)
    liveWithoutTask = SlotCounts(capacity: capacity)
    taskCapacity = 64
    jobOfTask = .allocate(capacity: taskCapacity)
    jobOfTask.initialize(repeating: 0, count: taskCapacity)
  }

  var isEmpty: Bool { count == 0 }

  /// Empties the queue for a new run (sequence numbers start again from 0). Room grown for a
  /// large run shrinks back to what this run used, so that the small runs after it do not clear
  /// room they never touch.
  mutating func removeAll() {
    var capacity = 256
    while capacity < used { capacity *= 2 }
    if capacity < live.capacity {
      slots.deallocate()
      slots = .allocate(capacity: capacity)
    } else {
      capacity = live.capacity
    }
    used = 0
    runStart = 0
    sequenceAtRun = 0
    count = 0
    nextSequence = 0
    live.reset(capacity: capacity)
    liveWithoutTask.reset(capacity: capacity)
    memset(jobOfTask, 0, taskCapacity * MemoryLayout<UInt64>.stride)
  }

  /// Appends a job that has just become runnable, and returns its sequence number.
  @discardableResult
  mutating func append(_ held: HeldJob, yieldingTask: Int = 0) -> UInt64 {
    if used == live.capacity { makeRoom() }
    let sequence = nextSequence
    nextSequence += 1
    (slots + used).initialize(to: Entry(held: held, sequence: sequence, yieldingTask: yieldingTask, isLive: true))
    live.add(1, atSlot: used)
    if held.task == 0 {
      liveWithoutTask.add(1, atSlot: used)
    } else {
      if held.task >= taskCapacity { growTaskTable(toHold: held.task) }
      jobOfTask[held.task] = sequence + 1
    }
    used += 1
    count += 1
    return sequence
  }

  /// The live job at `index` (0: the oldest).
  @inline(__always)
  func entry(at index: Int) -> Entry {
    precondition(index >= 0 && index < count, "ReadyQueue: index \(index) out of 0..<\(count)")
    return slots[live.slot(ofRank: index)]
  }

  /// Removes and returns the live job at `index` (0: the oldest).
  mutating func remove(at index: Int) -> Entry {
    precondition(index >= 0 && index < count, "ReadyQueue: index \(index) out of 0..<\(count)")
    let slot = live.slot(ofRank: index)
    slots[slot].isLive = false
    live.add(-1, atSlot: slot)
    let task = slots[slot].held.task
    if task == 0 {
      liveWithoutTask.add(-1, atSlot: slot)
    } else if jobOfTask[task] == slots[slot].sequence + 1 {
      jobOfTask[task] = 0
    }
    count -= 1
    return slots[slot]
  }

  /// Whether the job with this sequence number is runnable.
  func contains(sequence: UInt64) -> Bool {
    slot(ofSequence: sequence).map { slots[$0].isLive } ?? false
  }

  /// The index of the live job with this sequence number, or nil if it is not runnable.
  func index(ofSequence sequence: UInt64) -> Int? {
    guard let slot = slot(ofSequence: sequence), slots[slot].isLive else { return nil }
    return live.count(before: slot)
  }

  /// The index of the task's runnable job (for task 0, the oldest runnable job of no task), or nil.
  func index(ofTask task: Int) -> Int? {
    if task == 0 {
      let without = liveWithoutTask.count(before: used)
      guard without > 0 else { return nil }
      return live.count(before: liveWithoutTask.slot(ofRank: 0))
    }
    guard task > 0, task < taskCapacity, jobOfTask[task] != 0 else { return nil }
    return index(ofSequence: jobOfTask[task] - 1)
  }

  /// Passes the live jobs with sequence numbers from `sequence` on to `body`, oldest first.
  func forEachLive(from sequence: UInt64, _ body: (Entry) -> Void) {
    var slot = firstSlot(atOrAfter: sequence)
    while slot < used {
      if slots[slot].isLive { body(slots[slot]) }
      slot += 1
    }
  }

  /// Every live job, oldest first.
  var liveEntries: [Entry] {
    var entries: [Entry] = []
    entries.reserveCapacity(count)
    forEachLive(from: 0) { entries.append($0) }
    return entries
  }

  /// The slot holding `sequence`, if any (slots are in increasing sequence order).
  private func slot(ofSequence sequence: UInt64) -> Int? {
    let slot = firstSlot(atOrAfter: sequence)
    return slot < used && slots[slot].sequence == sequence ? slot : nil
  }

  private func firstSlot(atOrAfter sequence: UInt64) -> Int {
    if sequence >= sequenceAtRun {
      // Past the last compaction, slot and sequence number advance together.
      return min(runStart + Int(sequence - sequenceAtRun), used)
    }
    var low = 0
    var high = runStart
    while low < high {
      let middle = (low + high) >> 1
      if slots[middle].sequence < sequence { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Compacts the live jobs to the front, doubling the capacity first when more than half of the
  /// slots are live, and rebuilds the trees.
  private mutating func makeRoom() {
    var capacity = live.capacity
    if count * 2 > capacity {
      let larger = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
      larger.moveInitialize(from: slots, count: used)
      slots.deallocate()
      slots = larger
      capacity *= 2
    }
    var kept = 0
    for slot in 0..<used where slots[slot].isLive {
      slots[kept] = slots[slot]
      kept += 1
    }
    used = kept
    runStart = kept
    sequenceAtRun = nextSequence
    live.reset(capacity: capacity)
    liveWithoutTask.reset(capacity: capacity)
    let slots = self.slots
    live.rebuild(used: used) { _ in true }
    liveWithoutTask.rebuild(used: used) { slots[$0].held.task == 0 }
  }

  private mutating func growTaskTable(toHold task: Int) {
    var capacity = taskCapacity
    while capacity <= task { capacity *= 2 }
    let larger = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
    larger.initialize(repeating: 0, count: capacity)
    larger.update(from: jobOfTask, count: taskCapacity)
    jobOfTask.deallocate()
    jobOfTask = larger
    taskCapacity = capacity
  }
}
