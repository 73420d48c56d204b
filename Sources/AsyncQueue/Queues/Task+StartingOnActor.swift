extension Task {
  /// Returns the task `create` makes while treated as isolated to `actor`, without being on it.
  ///
  /// Why: `Task { }` starts on the isolation of its closure, which the runtime reads from the
  /// `@isolated(any)` function value; a closure is isolated to an actor *instance* only when it is
  /// formed in a context isolated to that instance, as `create`'s `isolated` parameter makes its
  /// body. A task created there has its first job enqueued on `actor`'s executor, so it starts
  /// there instead of starting on the global executor and hopping (one job per task, not two).
  ///
  /// Safe because `create` touches no state isolated to `actor`: it only forms a closure and
  /// hands it to `Task.init`, which reads the closure's isolation and enqueues the task's first
  /// job on that executor; nothing assumes it runs there. The standard library's
  /// `Actor.assumeIsolated` drops `isolated` from a function type with the same cast (the two
  /// types differ only in that annotation, which does not change the calling convention); here
  /// nothing is checked because nothing needs the isolation. `create` stays non-escaping, so its
  /// context is not allocated.
  @inline(__always)
  static func creating<ActorType: Actor>(
    startingOn actor: ActorType, _ create: (isolated ActorType) -> Task
  ) -> Task {
    withoutActuallyEscaping(create) { create in
      unsafeBitCast(create, to: ((ActorType) -> Task).self)(actor)
    }
  }
}
