/// One moment in the life of a scenario's semaphore, as ``SemaphoreOracle`` reads it.
package struct SemaphoreEvent: Equatable, Sendable {
  /// What happened.
  package enum Kind: Equatable, Sendable {
    /// Acquisition `id` began (before the call).
    case began(id: Int)
    /// Acquisition `id` took a permit (after the call returned).
    case acquired(id: Int)
    /// Acquisition `id` ended with a cancellation, without a permit.
    case cancelled(id: Int)
    /// A permit was given back (before the call).
    case released
    /// A step cancelled a task: a wait in line may leave it from now on.
    case taskCancelled
    /// The run completed with this many permits free.
    case ended(freePermits: Int)
  }

  /// What happened.
  package var kind: Kind
  /// The semaphore's name (empty for ``Kind/taskCancelled``, which concerns them all).
  package var semaphore: String
  /// Who did it: the caller or item whose step it was.
  package var owner: String

  /// An event.
  package init(_ kind: Kind, semaphore: String, owner: String) {
    self.kind = kind
    self.semaphore = semaphore
    self.owner = owner
  }
}
