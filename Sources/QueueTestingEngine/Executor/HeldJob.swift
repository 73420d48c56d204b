/// A job the active run holds until its strategy chooses it: the runtime's job, the run-local id
/// of its task (0: none, such as an actor's drain or a yield) and where it came from.
struct HeldJob {
  let job: UnownedJob
  let task: Int
  let source: Trace.Event.Source

  var isMain: Bool { source == .main }
}
