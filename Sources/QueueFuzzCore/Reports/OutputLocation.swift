import Foundation

/// Checks, before any work, that what a command will write can be written: a report file's
/// folder, a folder of saved failures. Finding out after an hour of stress is too late.
enum OutputLocation {
  /// Why a file could not be written at `path` (an empty path, a folder, a missing or
  /// read-only folder, a read-only file, a socket; see ``OutputFile``), or nil when it can.
  static func problemWritingFile(at path: String) -> String? {
    OutputFile.problem(writingAt: path)
  }

  /// Why files could not be written in `directory`, or nil when they can: it exists and a file
  /// can be made in it, or it does not exist yet and its first missing folder can be made in its
  /// nearest existing ancestor (so it can be created when the first file is saved).
  ///
  /// Each is tried, not judged from permission bits (which say "writable" to root everywhere,
  /// `/proc` included): a probe file or folder is made and removed at once, so nothing is left.
  static func problemWritingFolder(_ directory: String) -> String? {
    var candidate = directory.isEmpty ? "." : directory
    var missing: String?
    while true {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory) {
        guard isDirectory.boolValue else { return "cannot save files in \(directory): \(candidate) is not a folder" }
        let probe = missing ?? (candidate as NSString).appendingPathComponent(".queue-fuzz-probe-\(getpid())")
        if missing != nil {
          guard mkdir(probe, 0o755) == 0 else {
            return "cannot save files in \(directory): cannot make \(probe) (\(String(cString: strerror(errno))))"
          }
          rmdir(probe)
        } else {
          let file = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
          guard file >= 0 else {
            return
              "cannot save files in \(directory): \(candidate) is not writable (\(String(cString: strerror(errno))))"
          }
          close(file)
          unlink(probe)
        }
        return nil
      }
      missing = candidate
      let parent = (candidate as NSString).deletingLastPathComponent
      candidate = parent.isEmpty || parent == candidate ? "." : parent
    }
  }
}
