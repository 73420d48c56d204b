/// How a run's driver treats hops onto and off actors (see ``RuntimeModel/hops``).
package enum HopPolicy: Sendable, Equatable {
  /// Every hop is a scheduling point, and a task hopping onto a default actor arrives as a job
  /// of its own (see `ActorArrivalExecutor`): the model QueueTesting documents.
  case everyHop
  /// The runtime's fast path is left on: a job run on the generic executor switches to an idle
  /// actor inline, and so does a task leaving an actor. For the mutation check that shows what
  /// the hop tests find; never a user option.
  case runtimeFastPath
  /// Every hop is a scheduling point, but a task hopping onto a default actor joins its queue at
  /// the hop, inside the job that hops (the runtime's own order), instead of arriving as a job of
  /// its own. For the mutation check that shows what the deferred arrival finds; never a user
  /// option.
  case arrivalsAtTheHop

  /// Whether jobs run with the harness's task executor as the running context's, so that no hop
  /// continues inline.
  var schedulesEveryHop: Bool { self != .runtimeFastPath }
}
