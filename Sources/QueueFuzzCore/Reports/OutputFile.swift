import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file queue-fuzz writes at a path the user gave (`--output`, `shrink --out`, a saved
/// failure), written without clobbering what the path names:
///
/// - A regular file, or nothing yet: written to a temporary file in the same folder and renamed
///   over the path, so a reader never sees half a report.
/// - A symbolic link: followed; the file it names is written as above, and the link stays.
/// - A FIFO or a character device (`/dev/stdout`, `/dev/null`, a shell's `>(…)`): written in
///   place, never replaced. A FIFO's write waits for its reader, as a shell redirection does.
/// - A folder, a socket, a block device, an empty path: refused before any work.
struct OutputFile {
  /// What the path names once links are followed.
  enum Kind: Equatable {
    /// A regular file, or no file yet: replaced atomically.
    case replaceable
    /// A FIFO or character device: written in place.
    case inPlace
  }

  /// The path as the user gave it.
  let path: String
  /// The path with every symbolic link followed (the file that is written).
  let resolvedPath: String
  let kind: Kind

  /// Classifies `path`, or says why nothing can be written there.
  static func at(_ path: String) -> Result<OutputFile, OutputFileProblem> {
    guard !path.isEmpty else { return .failure(OutputFileProblem("an empty path names no file")) }
    var resolved = path
    var info = stat()
    var links = 0
    while lstat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
      links += 1
      guard links <= 40, let target = linkTarget(resolved) else {
        return .failure(OutputFileProblem("cannot write \(path): too many symbolic links, or one that cannot be read"))
      }
      resolved =
        target.hasPrefix("/")
        ? target : ((resolved as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
    }
    guard lstat(resolved, &info) == 0 else {
      // Nothing there yet: its folder must exist and be writable.
      return folderProblem(for: resolved, named: path).map(Result.failure)
        ?? .success(OutputFile(path: path, resolvedPath: resolved, kind: .replaceable))
    }
    let shown = resolved == path ? path : "\(path) (a link to \(resolved))"
    switch info.st_mode & S_IFMT {
    case S_IFREG:
      if let problem = folderProblem(for: resolved, named: shown) { return .failure(problem) }
      guard access(resolved, W_OK) == 0 else {
        return .failure(OutputFileProblem("cannot write \(shown): the file is not writable"))
      }
      return .success(OutputFile(path: path, resolvedPath: resolved, kind: .replaceable))
    case S_IFIFO, S_IFCHR:
      guard access(resolved, W_OK) == 0 else {
        return .failure(OutputFileProblem("cannot write \(shown): it is not writable"))
      }
      return .success(OutputFile(path: path, resolvedPath: resolved, kind: .inPlace))
    case S_IFDIR:
      return .failure(OutputFileProblem("cannot write \(shown): it is a folder; give a file path"))
    default:
      return .failure(
        OutputFileProblem("cannot write \(shown): it is a socket or a block device, not a file queue-fuzz writes"))
    }
  }

  /// Why nothing can be written at `path`, or nil when it can.
  static func problem(writingAt path: String) -> String? {
    if case .failure(let problem) = at(path) { return problem.message }
    return nil
  }

  /// Removes a regular file at the path (the link's target for a link), so that a session that
  /// is killed before it writes its report leaves nothing that looks like its result.
  func removeStale() {
    guard kind == .replaceable else { return }
    unlink(resolvedPath)
  }

  /// Writes `data`; throws what went wrong.
  func write(_ data: Data) throws(OutputFileProblem) {
    switch kind {
    case .replaceable:
      do {
        try data.write(to: URL(fileURLWithPath: resolvedPath), options: .atomic)
      } catch {
        throw OutputFileProblem("cannot write \(path): \(error.localizedDescription)")
      }
    case .inPlace:
      guard let handle = FileHandle(forWritingAtPath: resolvedPath) else {
        throw OutputFileProblem("cannot open \(path) for writing")
      }
      defer { try? handle.close() }
      do {
        try handle.write(contentsOf: data)
      } catch {
        throw OutputFileProblem("cannot write \(path): \(error.localizedDescription)")
      }
    }
  }

  private static func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func folderProblem(for resolved: String, named shown: String) -> OutputFileProblem? {
    let folder = (resolved as NSString).deletingLastPathComponent
    let directory = folder.isEmpty ? "." : folder
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      return OutputFileProblem("cannot write \(shown): the folder \(directory) does not exist")
    }
    guard access(directory, W_OK) == 0 else {
      return OutputFileProblem("cannot write \(shown): the folder \(directory) is not writable")
    }
    return nil
  }
}

/// Why an output file cannot be written: a sentence naming the path.
struct OutputFileProblem: Error, Equatable {
  let message: String

  init(_ message: String) {
    self.message = message
  }
}
