/// An actor that runs on another actor's serial executor and keeps that actor alive.
///
/// Why: an ``ActorQueue`` holds its actor weakly (so that an idle queue creates no retain cycle
/// and can report use after the actor is gone), and a weakly referenced object takes the runtime's
/// slow reference-counting path for *every* retain and release. The actor queue's drainer and the
/// task it starts per item would retain the actor several times per item, each on that slow path.
/// Isolating them to this proxy instead moves that traffic to an object nobody references weakly.
///
/// Isolation is by executor: code isolated to the proxy runs on the target's serial executor, so
/// it excludes the target's own code exactly as the target's methods do, and `Task.immediate`
/// from the target's context starts proxy-isolated work synchronously.
@usableFromInline
final actor ExecutorProxy<Target: Actor> {
  /// The actor whose executor this proxy uses; kept alive for as long as the proxy is.
  @usableFromInline nonisolated let target: Target

  @usableFromInline
  init(_ target: Target) {
    self.target = target
  }

  /// The target's executor, asked each time rather than remembered: an actor's executor can
  /// change identity while the program runs (the main actor's does when a test harness installs
  /// its executors), and the proxy must always be the same isolation as its target.
  @inlinable
  nonisolated var unownedExecutor: UnownedSerialExecutor { target.unownedExecutor }
}
