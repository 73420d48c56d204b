#if compiler(>=6.3)
  import Foundation
  import Synchronization
  @testable import QueueTestingEngine
  import Testing
  import QueueWorkloads

  /// What swift-concurrency-extras' `withMainSerialExecutor` does: every global enqueue goes to
  /// the main actor's serial queue, in order.
  private typealias EnqueueOriginal = @convention(thin) (UnownedJob) -> Void
  private typealias EnqueueHook = @convention(thin) (UnownedJob, EnqueueOriginal) -> Void

  private func setMainSerialHook(_ on: Bool) {
    let address = dlsym(dlopen(nil, 0), "swift_task_enqueueGlobal_hook")!.assumingMemoryBound(to: EnqueueHook?.self)
    address.pointee = on ? { job, _ in MainActor.shared.enqueue(job) } : nil
  }

  /// Items appended from many tasks, in the order they were appended.
  private final class AppendLog: Sendable {
    private let storage = Mutex<[Int]>([])
    func append(_ item: Int) { storage.withLock { $0.append(item) } }
    var items: [Int] { storage.withLock { $0 } }
  }

  /// Another tool's executor hook inside a controlled run: the harness honours the global-enqueue
  /// hook (the jobs go where it sends them, as on real threads). Each test runs in a process of
  /// its own: the hooks are the process's.
  @Suite("Other tools' executor hooks", .timeLimit(.minutes(5)), .hangGuard)
  struct ForeignHookTests {
    /// Runs 20 random schedules of 100 task-group children appending under a main-serial hook,
    /// and prints how many appended in the order they were added.
    @available(ExecutorHooks 1.0, *)
    static func printOrderedSchedules(honoured: Bool) -> Never {
      var ordered = 0
      for seed in UInt64(1)...20 {
        let log = AppendLog()
        let result = ControlledExecutor.runBlocking(
          strategy: SeededRandomStrategy(seed: seed),
          model: honoured ? .faithful : .faithful { $0.honoursOtherToolsGlobalHook = false }
        ) {
          setMainSerialHook(true)
          await withTaskGroup(of: Void.self) { group in
            for item in 1...100 { group.addTask { log.append(item) } }
          }
          setMainSerialHook(false)
        }
        guard result.outcome == .completed else {
          print("seed \(seed): \(result.outcome)")
          exit(1)
        }
        if log.items == Array(1...100) { ordered += 1 }
      }
      print("ordered \(ordered) of 20")
      exit(0)
    }

    /// Under a main-serial hook, the children append in the order they were added on every
    /// schedule, as on real threads.
    @available(ExecutorHooks 1.0, *)
    @Test func theMainSerialHookKeepsItsOrder() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        Self.printOrderedSchedules(honoured: true)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("ordered 20 of 20"), "\(output)")
    }

    /// A hook the harness cannot honour (here the main executor's enqueue hook, set by the body)
    /// ends the run with a failure that names it, instead of a run that silently lost its jobs.
    @available(ExecutorHooks 1.0, *)
    @Test func aHookTheHarnessCannotHonourIsNamed() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        let result = ControlledExecutor.runBlocking(seed: 1) {
          let address = dlsym(dlopen(nil, 0), "swift_task_enqueueMainExecutor_hook")!
            .assumingMemoryBound(to: EnqueueHook?.self)
          address.pointee = { job, original in original(job) }
          await Task.yield()
        }
        print("\(result.outcome)")
        exit(0)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(
        output.contains(
          "foreignExecutorHook(\"another executor hook was set during the run: swift_task_enqueueMainExecutor_hook."),
        "\(output)")
    }

    /// The mutation check: without the harness handing the run's jobs to the hook, the runtime
    /// passes them to the harness directly (they prefer its executor), and the schedules reorder
    /// them.
    @available(ExecutorHooks 1.0, *)
    @Test func withoutHonouringTheHookTheScheduleReorders() async throws {
      let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
        Self.printOrderedSchedules(honoured: false)
      }
      let output = String(decoding: child.standardOutputContent, as: UTF8.self)
      #expect(output.contains("ordered 0 of 20"), "\(output)")
    }
  }
#endif
