extension Task where Failure == Never {
  /// Creates a task with a name where the platform supports task names (Swift 6.2 runtimes);
  /// elsewhere the name is dropped, which changes nothing but diagnostics.
  init(
    nameIfAvailable name: String?,
    priority: TaskPriority?,
    @_inheritActorContext body: sending @escaping @isolated(any) () async -> Success
  ) {
    if let name, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
      self.init(name: name, priority: priority, operation: body)
    } else {
      self.init(priority: priority, operation: body)
    }
  }
}

extension Task where Failure == any Error {
  /// Creates a task with a name where the platform supports task names (Swift 6.2 runtimes);
  /// elsewhere the name is dropped, which changes nothing but diagnostics.
  init(
    nameIfAvailable name: String?,
    priority: TaskPriority?,
    @_inheritActorContext body: sending @escaping @isolated(any) () async throws -> Success
  ) {
    if let name, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
      self.init(name: name, priority: priority, operation: body)
    } else {
      self.init(priority: priority, operation: body)
    }
  }
}

extension Task where Failure == Never {
  /// Creates a task for a queue's own work, from a body with no isolation of its own: named
  /// where the platform supports names, and preferring the task executor the installed
  /// ``QueueObserver`` asks for (QueueTesting's, under a controlled run; none otherwise).
  init(queueTaskNamed name: String?, priority: TaskPriority?, body: sending @escaping () async -> Success) {
    if let executor = QueueObservation.taskExecutorForNewTasks {
      self.init(name: name, executorPreference: executor, priority: priority, operation: body)
    } else {
      self.init(nameIfAvailable: name, priority: priority, body: body)
    }
  }
}

extension Task where Failure == any Error {
  /// Creates a throwing task for a queue's own work; see the non-throwing form.
  init(queueTaskNamed name: String?, priority: TaskPriority?, body: sending @escaping () async throws -> Success) {
    if let executor = QueueObservation.taskExecutorForNewTasks {
      self.init(name: name, executorPreference: executor, priority: priority, operation: body)
    } else {
      self.init(nameIfAvailable: name, priority: priority, body: body)
    }
  }
}
