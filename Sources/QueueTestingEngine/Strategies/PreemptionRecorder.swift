import AsyncQueue

/// Wraps a strategy and records the preemptions of the run it drives (see ``Preemption``), and
/// the task it chose at each choice.
///
/// The record is shared by copies of the recorder (a run takes its strategy by value), so the
/// caller keeps one copy and reads ``preemptions`` and ``chosenTasks`` after the run.
package struct PreemptionRecorder<Base: ScheduleStrategy>: ScheduleStrategy {
  /// What the run did, choice by choice.
  struct Record: Sendable {
    var preemptions: [Preemption] = []
    var chosenTasks: [Int] = []
  }

  private var base: Base
  private let record = LockedState(Record())

  /// Records the run `base` drives.
  public init(_ base: Base) {
    self.base = base
  }

  /// The run's preemptions so far, in order.
  public var preemptions: [Preemption] { record.withLock(\.preemptions) }

  /// The task chosen at each choice so far (only steps with two or more runnable jobs are
  /// choices).
  public var chosenTasks: [Int] { record.withLock(\.chosenTasks) }

  /// The base strategy's choice (a run calls the context form).
  public mutating func choose(runnableCount: Int) -> Int {
    base.choose(runnableCount: runnableCount)
  }

  /// The base strategy's choice, recorded.
  @_spi(Strategies) public mutating func choose(from runnable: RunnableJobs, context: ChoiceContext) -> Int {
    let index = base.choose(from: runnable, context: context)
    let chosenIndex = min(max(index, 0), runnable.count - 1)
    let chosen = runnable.task(at: chosenIndex)
    record.withLock { record in
      if let going = context.continuingIndex, going != chosenIndex {
        let from = context.previousTask != 0 ? context.previousTask : runnable.task(at: going)
        record.preemptions.append(
          Preemption(step: context.step + 1, choice: record.chosenTasks.count, from: from, to: chosen))
      }
      record.chosenTasks.append(chosen)
    }
    return index
  }

  /// The base strategy's.
  @_spi(Strategies) public var fairFromChoice: Int? { base.fairFromChoice }

  /// The base strategy's summary.
  public var summary: String? { base.summary }

  /// The base strategy's cancellation.
  @_spi(Strategies) public mutating func cancellation(afterStep step: Int, eligibleTasks: [Int]) -> Int? {
    base.cancellation(afterStep: step, eligibleTasks: eligibleTasks)
  }

  /// The base strategy's admissions.
  @_spi(Strategies) public var replayedAdmissions: [Schedule.Admission]? { base.replayedAdmissions }

  /// The base strategy's timer delays.
  @_spi(Strategies) public var replayedTimerDelays: [UInt64?]? { base.replayedTimerDelays }
}

extension PreemptionRecorder: Sendable where Base: Sendable {}
