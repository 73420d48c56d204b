#if compiler(>=6.3)
  import Foundation

  /// Where a schedule too long for a command line goes, so that the replay line a failure prints
  /// always runs as printed.
  ///
  /// A shell passes one argument or variable of at most 128 KiB on Linux, and a failing schedule
  /// that ran to the step budget can take 200 KB as text. Past ``longestInline`` characters a
  /// failure saves its schedule in a file and its replay line names that file through
  /// ``ControlledScheduling/scheduleFileVariable`` instead of spelling the schedule out.
  enum ScheduleFile {
    /// The longest schedule text a replay line spells out.
    static let longestInline = 2_000

    /// Saves `schedule` for the test, in `.build/queue-testing-schedules/` under the current
    /// folder when there is a `.build` there (where `swift test` runs), else in the temporary
    /// folder, and returns the file's absolute path; nil if no file could be written.
    static func save(_ schedule: Schedule, stem: String, traceHash: UInt64) -> String? {
      let manager = FileManager.default
      let build = URL(fileURLWithPath: manager.currentDirectoryPath).appendingPathComponent(".build")
      var folders = [manager.temporaryDirectory.appendingPathComponent("queue-testing-schedules")]
      var isFolder: ObjCBool = false
      if manager.fileExists(atPath: build.path, isDirectory: &isFolder), isFolder.boolValue {
        folders.insert(build.appendingPathComponent("queue-testing-schedules"), at: 0)
      }
      let name = "\(stem)-\(String(traceHash, radix: 16)).schedule"
      for folder in folders {
        let file = folder.appendingPathComponent(name)
        do {
          try manager.createDirectory(at: folder, withIntermediateDirectories: true)
          try Data("\(schedule)\n".utf8).write(to: file, options: .atomic)
          return file.path
        } catch {
          continue
        }
      }
      return nil
    }

    /// Saves the failure's schedule when it is longer than ``longestInline`` and returns where;
    /// nil when it is short enough to print.
    static func saveIfLong(_ failure: ControlledScheduling.Failure, stem: String) -> String? {
      guard "\(failure.run.schedule)".utf8.count > longestInline else { return nil }
      return save(failure.run.schedule, stem: stem, traceHash: failure.run.trace.hash)
    }

    /// Reads a schedule saved by ``save(_:stem:traceHash:)`` (or written by hand).
    /// - Throws: ``ControlledSchedulingError`` naming the file and what was wrong.
    static func read(_ path: String, variable: String) throws(ControlledSchedulingError) -> Schedule {
      guard let data = FileManager.default.contents(atPath: path) else {
        throw ControlledSchedulingError(message: "\(variable)=\(path): the file cannot be read (does it exist?)")
      }
      guard let text = String(data: data, encoding: .utf8) else {
        throw ControlledSchedulingError(message: "\(variable)=\(path): the file is not UTF-8 text")
      }
      do {
        return try Schedule(parsing: text.trimmingCharacters(in: .whitespacesAndNewlines))
      } catch {
        throw ControlledSchedulingError(message: "\(variable)=\(path): \(error.message)")
      }
    }
  }
#endif
