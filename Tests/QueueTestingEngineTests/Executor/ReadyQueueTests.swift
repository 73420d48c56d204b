#if compiler(>=6.3)
  @testable import QueueTestingEngine
  import Testing
  import QueueWorkloads

  @Suite("ReadyQueue", .timeLimit(.minutes(5)), .hangGuard)
  struct ReadyQueueTests {
    /// Against a plain array of the live jobs, oldest first: every index, lookup by sequence and
    /// lookup by task agrees, through growth and compactions, over random appends and removals.
    @Test(arguments: 0..<25)
    func agreesWithAPlainList(seed: UInt64) {
      var dice = SplitMix64(seed: seed)
      var queue = ReadyQueue(capacity: 4)
      var model: [(sequence: UInt64, task: Int, yielding: Int)] = []
      var removed: [UInt64] = []
      var nextTask = 1
      var jobs = 0
      for round in 0..<2_000 {
        // Grow for a while, then shrink, so that both doubling and compaction happen.
        let appending = (round / 250) % 2 == 0 ? dice.next() % 3 != 0 : dice.next() % 3 == 0
        if appending || model.isEmpty {
          let task: Int
          if dice.next() % 3 == 0 {
            task = 0
          } else {
            task = nextTask
            nextTask += 1
          }
          jobs += 1
          let yielding = dice.next() % 5 == 0 ? Int(dice.next() % 10) + 1 : 0
          let sequence = queue.append(
            HeldJob(job: StandInJob.make(jobs), task: task, source: .global), yieldingTask: yielding)
          model.append((sequence, task, yielding))
        } else {
          let index = Int(dice.next() % UInt64(model.count))
          let entry = queue.remove(at: index)
          let expected = model.remove(at: index)
          #expect(entry.sequence == expected.sequence && entry.held.task == expected.task)
          #expect(entry.yieldingTask == expected.yielding)
          removed.append(expected.sequence)
        }
        #expect(queue.count == model.count)
        if model.isEmpty { continue }
        let probe = Int(dice.next() % UInt64(model.count))
        #expect(queue.entry(at: probe).sequence == model[probe].sequence)
        #expect(queue.index(ofSequence: model[probe].sequence) == probe)
        let task = model[probe].task
        #expect(queue.index(ofTask: task) == model.firstIndex { $0.task == task })
        if let gone = removed.last {
          #expect(queue.index(ofSequence: gone) == nil)
          #expect(!queue.contains(sequence: gone))
        }
        var newer: [UInt64] = []
        let from = model[probe].sequence
        queue.forEachLive(from: from) { newer.append($0.sequence) }
        #expect(newer == model.map(\.sequence).filter { $0 >= from })
      }
      #expect(queue.liveEntries.map(\.sequence) == model.map(\.sequence))
      #expect(queue.index(ofTask: 0) == model.firstIndex { $0.task == 0 })
    }

    /// A new run starts from an empty queue and sequence 0.
    @Test func removeAllStartsAgain() {
      var queue = ReadyQueue(capacity: 4)
      for job in 1...10 { queue.append(HeldJob(job: StandInJob.make(job), task: job, source: .global)) }
      queue.removeAll()
      #expect(queue.isEmpty && queue.nextSequence == 0 && queue.index(ofTask: 3) == nil)
      #expect(queue.append(HeldJob(job: StandInJob.make(1), task: 3, source: .global)) == 0)
      #expect(queue.index(ofTask: 3) == 0)
    }
  }
#endif
