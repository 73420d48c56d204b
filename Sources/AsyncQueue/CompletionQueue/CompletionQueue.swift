#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Runs one item at a time, where an item is over when it *says* so: each item gets a finish
/// callback, and the next item starts only after that callback was called.
///
/// Made for work that outlives the closure that starts it: a prompt that waits for the user, an
/// API with a completion handler, a delegate. Items start on the main actor unless you pass an
/// actor:
///
/// ```swift
/// let prompts = CompletionQueue(name: "prompts")
/// prompts.enqueue { finish in
///   askForLocationPermission { _ in finish() }    // the next item waits for this call
/// }
/// prompts.enqueue { finish in
///   guard needsLogin else { return finish() }    // an item may finish at once
///   presentLogin(onDismiss: { finish() })
/// }
/// ```
///
/// - **Order:** items start in the order they were enqueued, one at a time: an item starts after
///   the previous item's finish callback was called.
/// - **Finishing:** call the callback exactly once, from any thread, at any time (also before the
///   item's closure returns). A second call does nothing but report a diagnostic. An item whose
///   callback is never called holds the queue forever, and keeps the queue alive; QueueTesting's
///   deadlock report names such an item ("finish never called").
/// - **Pausing:** ``pause()`` holds back items that have not started; the running item goes on
///   until it finishes. ``resume()`` lets them start again.
/// - **Isolation:** items enqueued with ``enqueue(_:)`` start on the main actor; with
///   ``enqueue(on:_:)``, on the given actor. Each starts in a task of its own.
public final class CompletionQueue: Sendable {
  /// The callback that ends an item's turn. Call it once, from any thread.
  public struct Finish: Sendable {
    let queue: CompletionQueue
    let id: UInt64
    let observed: ObservedQueueItem?

    /// Ends the item's turn; the next item may start. A second call does nothing but report a
    /// diagnostic through the queue.
    public func callAsFunction() {
      queue.finish(self)
    }
  }

  struct Item: Sendable {
    let start: @Sendable (Finish) -> Void
    let observed: ObservedQueueItem?
  }

  typealias StateMachine = CompletionQueueStateMachine<Item, CheckedContinuation<Void, Never>>

  /// A name for diagnostics and QueueTesting's reports.
  public let name: String?
  private let diagnostic: @Sendable (String) -> Void
  private let state = LockedState<StateMachine>.make(StateMachine())

  /// Creates an empty, running queue.
  /// - Parameters:
  ///   - name: A name for diagnostics.
  ///   - diagnostic: Receives misuse reports (a finish callback called twice). The default
  ///     writes them to standard error in debug builds and ignores them in release builds.
  public init(
    name: String? = nil,
    diagnostic: @escaping @Sendable (String) -> Void = CompletionQueue.standardErrorInDebugBuilds
  ) {
    self.name = name
    self.diagnostic = diagnostic
  }

  /// Adds an item that starts on the main actor when its turn comes.
  public func enqueue(_ item: @escaping @MainActor @Sendable (Finish) -> Void) {
    let name = self.name
    add { finish in
      _ = Task(nameIfAvailable: name, priority: nil) { @MainActor in
        finish.observed?.started()
        item(finish)
      }
    }
  }

  /// Adds an item that starts on `actor` when its turn comes.
  public func enqueue<A: Actor>(on actor: A, _ item: @escaping @Sendable (isolated A, Finish) -> Void) {
    let name = self.name
    add { finish in
      _ = Task(queueTaskNamed: name, priority: nil) {
        await Self.start(item, on: actor, finish)
      }
    }
  }

  /// Returns once every item enqueued before this call has finished (at once when there is
  /// none). A pause holds it only as long as it holds items enqueued before it.
  public func waitUntilFinished() async {
    let observed = ObservedQueueItem.announce(on: description, waiting: true)
    await withCheckedContinuation { continuation in
      carryOut(state.withLock { $0.enqueueWaiter(continuation) })
    }
    observed?.started()
    observed?.finished()
  }

  /// Holds back items that have not started; the running item goes on.
  public func pause() {
    state.withLock { $0.pause() }
  }

  /// Lets held-back items start again, in order.
  public func resume() {
    carryOut(state.withLock { $0.resume() })
  }

  /// Whether the queue is paused.
  public var isPaused: Bool {
    state.withLock(\.isPaused)
  }

  /// The default diagnostic: standard error in debug builds, nothing in release builds.
  public static let standardErrorInDebugBuilds: @Sendable (String) -> Void = { message in
    #if DEBUG
      let line = "CompletionQueue: \(message)\n"
      _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    #endif
  }

  private var description: QueueDescription {
    QueueDescription(id: ObjectIdentifier(self), name: name, kind: .completion)
  }

  private func add(_ start: @escaping @Sendable (Finish) -> Void) {
    let observed = ObservedQueueItem.announce(on: description, waiting: false)
    carryOut(state.withLock { $0.enqueue(Item(start: start, observed: observed)) })
  }

  private func finish(_ finish: Finish) {
    switch state.withLock({ $0.finish(finish.id) }) {
    case .finished(let actions):
      finish.observed?.finished()
      carryOut(actions)
    case .alreadyFinished:
      diagnostic(
        "the finish callback of item \(finish.id) of queue '\(name ?? "unnamed")' was called again; ignored")
    }
  }

  private func carryOut(_ actions: StateMachine.Actions) {
    for waiter in actions.resume { waiter.resume() }
    if let (id, item) = actions.start {
      item.start(Finish(queue: self, id: id, observed: item.observed))
    }
  }

  private static func start<A: Actor>(
    _ item: @Sendable (isolated A, Finish) -> Void, on actor: isolated A, _ finish: Finish
  ) {
    finish.observed?.started()
    item(actor, finish)
  }
}
