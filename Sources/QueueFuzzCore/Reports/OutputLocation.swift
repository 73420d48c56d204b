import Foundation

/// Checks, before any work, that what a command will write can be written: a report file's
/// folder, a folder of saved failures. Finding out after an hour of stress is too late.
enum OutputLocation {
  /// Why a file could not be written at `path` (an empty path, a folder, a missing or
  /// read-only folder, a read-only file, a socket; see ``OutputFile``), or nil when it can.
  static func problemWritingFile(at path: String) -> String? {
    OutputFile.problem(writingAt: path)
  }

  /// Why files could not be written in `directory`, or nil when they can: it exists and is a
  /// writable folder, or it does not exist yet and its nearest existing ancestor is a writable
  /// folder (so it can be created when the first file is saved; nothing is created now).
  static func problemWritingFolder(_ directory: String) -> String? {
    var candidate = directory.isEmpty ? "." : directory
    while true {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory) {
        guard isDirectory.boolValue else { return "cannot save files in \(directory): \(candidate) is not a folder" }
        guard FileManager.default.isWritableFile(atPath: candidate) else {
          return "cannot save files in \(directory): \(candidate) is not writable"
        }
        return nil
      }
      let parent = (candidate as NSString).deletingLastPathComponent
      if parent.isEmpty || parent == candidate {
        return FileManager.default.isWritableFile(atPath: ".") ? nil : "cannot save files in \(directory)"
      }
      candidate = parent
    }
  }
}
