#if compiler(>=6.3)
  @available(ExecutorHooks 1.0, *)
  extension RunState {
    /// A job as it was enqueued, before the run holds it: the runtime's id of its task (0: not a
    /// task) and where it came from. The driver's own captures and other threads' deliveries
    /// (see ``RunMailbox``) both wait in this form.
    struct CapturedJob {
      let job: UnownedJob
      let taskID: UInt64
      let source: RunDriver.Source
      var note: JobNote = .plain
    }

    /// What a job says about the run's hop model, beyond its task (see ``RunResult/inlineHopTasks``).
    enum JobNote: Equatable {
      case plain
      /// The job of a task that has a task-executor preference.
      case taskWithPreference
      /// A default actor's processing job (its drain).
      case actorDrain
      /// A `Task.yield()` of the task with this runtime id: running the job makes that task
      /// runnable again.
      case yield(of: UInt64)
    }
  }
#endif
