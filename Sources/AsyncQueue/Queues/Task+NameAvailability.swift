extension Task where Failure == Never {
  /// Creates a task with a name where the platform supports task names (Swift 6.2 runtimes);
  /// elsewhere the name is dropped, which changes nothing but diagnostics.
  init(
    nameIfAvailable name: String?,
    priority: TaskPriority?,
    body: sending @escaping @isolated(any) () async -> Success
  ) {
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
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
    body: sending @escaping @isolated(any) () async throws -> Success
  ) {
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
      self.init(name: name, priority: priority, operation: body)
    } else {
      self.init(priority: priority, operation: body)
    }
  }
}
