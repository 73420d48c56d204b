#if compiler(>=6.3) && !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
  import Foundation
  import Synchronization

  /// What the body of a controlled test writes (`print`, standard error), shown once rather than
  /// once per schedule, when the test runs in a child process (see ``ChildProcessIsolation``).
  ///
  /// A body runs up to a hundred times, and plain Swift Testing shows everything it prints; a
  /// hundred copies of it would bury the one that matters. So, in the child, each schedule's
  /// output (file descriptors 1 and 2 both, in the order written) goes to a file of its own, and
  /// when the series ends the child keeps one: the failing schedule's (its reduced run's, when
  /// the failure was reduced), or the first schedule's when every schedule passed. The parent
  /// prints it on its standard output, under a line that names the test and the schedule, and
  /// for a child that crashed or got stuck, it prints what the schedule wrote until then (the
  /// runtime's crash message among it).
  ///
  /// In place (`QUEUE_TESTING_ISOLATION=none`, or where no child can start), nothing is captured:
  /// every schedule's output reaches the terminal as it is written.
  final class ScheduleOutput: Sendable {
    /// Set in a child to the folder where its output files go.
    static let variable = "QUEUE_TESTING_OUTPUT"

    /// The capture of this test's series (set in a child, around the series).
    @TaskLocal static var current: ScheduleOutput?

    let folder: String
    private let testID: String
    /// The case's arguments, for a parameterized test (each case keeps its own output).
    private let arguments: String?

    private struct State {
      /// The process's own descriptors 1 and 2, kept while a schedule's output is captured.
      var saved: (out: Int32, err: Int32)?
    }
    private let state = Mutex(State())

    init(folder: String, testID: String, arguments: String?) {
      self.folder = folder
      self.testID = testID
      self.arguments = arguments
    }

    /// The file a running schedule's output goes to in the child `pid`: the parent reads it
    /// when that child ended in the middle of a schedule.
    static func runningPath(folder: String, pid: Int32) -> String {
      "\(folder)/running-\(pid).out"
    }

    /// The file where a child leaves the output kept for `testID` (its case `arguments`).
    static func keptPath(folder: String, testID: String, arguments: String?) -> String {
      // FNV-1a: a file name from any test ID, the same in parent and child.
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in testID.utf8 + [0] + (arguments ?? "").utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
      }
      return "\(folder)/test-\(String(hash, radix: 16)).out"
    }

    private var runningPath: String { Self.runningPath(folder: folder, pid: getpid()) }
    private var firstPath: String { "\(folder)/first-\(getpid()).out" }

    /// Sends what the process writes from now on to the running schedule's file.
    func begin() {
      fflush(nil)
      let file = open(runningPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      guard file >= 0 else { return }
      state.withLock { state in
        if state.saved == nil { state.saved = (dup(1), dup(2)) }
        dup2(file, 1)
        dup2(file, 2)
      }
      close(file)
    }

    /// Gives the process its own descriptors back; the first schedule's output is set aside.
    func end(scheduleNumber: Int) {
      fflush(nil)
      state.withLock { state in
        guard let saved = state.saved else { return }
        dup2(saved.out, 1)
        dup2(saved.err, 2)
        close(saved.out)
        close(saved.err)
        state.saved = nil
        if scheduleNumber == 1 {
          // Moved aside, not linked: the next schedule truncates a file of its own.
          unlink(firstPath)
          rename(runningPath, firstPath)
        }
      }
    }

    /// Keeps the output of the reported schedule for the parent: the last run's when the series
    /// failed, the first schedule's when it passed. `header` names it. Nothing is kept when that
    /// schedule wrote nothing.
    func keep(failed: Bool, header: String) {
      // A failing first schedule that was not reduced wrote no later file: its own was set aside.
      let source = failed && FileManager.default.fileExists(atPath: runningPath) ? runningPath : firstPath
      defer {
        unlink(runningPath)
        unlink(firstPath)
      }
      guard let data = FileManager.default.contents(atPath: source), !data.isEmpty else { return }
      var text = header + "\n" + String(decoding: data, as: UTF8.self)
      if !text.hasSuffix("\n") { text += "\n" }
      _ = FileManager.default.createFile(
        atPath: Self.keptPath(folder: folder, testID: testID, arguments: arguments), contents: Data(text.utf8))
    }

    /// Keeps a warning the trait recorded (a passing series' summary, a replay that passed) for
    /// the parent to record too: Swift Testing's event stream, as the child writes it, leaves
    /// warnings out.
    func keepWarning(_ text: String) {
      let path = Self.warningsPath(folder: folder, testID: testID, arguments: arguments)
      guard let line = try? JSONEncoder().encode(text) else { return }
      let file = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
      guard file >= 0 else { return }
      defer { close(file) }
      (line + Data("\n".utf8)).withUnsafeBytes { _ = write(file, $0.baseAddress, $0.count) }
    }

    /// Keeps what the schedule a child ran alone spent (see ``FreshProcessSeries``), for the
    /// parent, which keeps the series' budget across its fresh processes.
    func keepRunSpend(_ spend: RunSpend) {
      guard let data = try? JSONEncoder().encode(spend) else { return }
      _ = FileManager.default.createFile(
        atPath: Self.spendPath(folder: folder, testID: testID, arguments: arguments), contents: data)
    }

    /// The file where a child leaves what its schedule run alone for `testID` spent.
    static func spendPath(folder: String, testID: String, arguments: String?) -> String {
      keptPath(folder: folder, testID: testID, arguments: arguments) + ".spend"
    }

    /// The file where a child leaves the warnings kept for `testID`, one JSON string per line.
    static func warningsPath(folder: String, testID: String, arguments: String?) -> String {
      keptPath(folder: folder, testID: testID, arguments: arguments) + ".warnings"
    }

    // MARK: - In the parent

    /// What the schedule a child ran alone for `testID` spent, taken (its file removed).
    static func takeRunSpend(testID: String) -> RunSpend? {
      guard let folder = parentFolder else { return nil }
      let path = spendPath(folder: folder, testID: testID, arguments: nil)
      defer { unlink(path) }
      return FileManager.default.contents(atPath: path).flatMap { try? JSONDecoder().decode(RunSpend.self, from: $0) }
    }

    /// The warnings a child kept for `testID`, taken (their file removed).
    static func takeWarnings(testID: String, arguments: String?) -> [String] {
      guard let folder = parentFolder else { return [] }
      let path = warningsPath(folder: folder, testID: testID, arguments: arguments)
      defer { unlink(path) }
      guard let data = FileManager.default.contents(atPath: path) else { return [] }
      return data.split(separator: UInt8(ascii: "\n")).compactMap { try? JSONDecoder().decode(String.self, from: $0) }
    }

    /// The folder this process's children write their output to, made on first use and removed
    /// when the process exits.
    static let parentFolder: String? = {
      let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "queue-testing-output-\(getpid())-\(UUID().uuidString)"
      ).path
      guard (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil else {
        return nil
      }
      atexit {
        if let folder = ScheduleOutput.parentFolder { try? FileManager.default.removeItem(atPath: folder) }
      }
      return path
    }()

    /// The output a child kept for `testID`, taken (its file removed).
    static func take(testID: String, arguments: String?) -> String? {
      guard let folder = parentFolder else { return nil }
      let path = keptPath(folder: folder, testID: testID, arguments: arguments)
      defer { unlink(path) }
      return FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// What the child `pid` wrote during the schedule it ended in, taken (its file removed).
    static func takeRunning(pid: Int32) -> String? {
      guard let folder = parentFolder else { return nil }
      let path = runningPath(folder: folder, pid: pid)
      defer {
        unlink(path)
        unlink("\(folder)/first-\(pid).out")
      }
      return FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Prints `text` (a kept output, its header first) on this process's standard output.
    static func show(_ text: String) {
      fflush(nil)
      FileHandle.standardOutput.write(Data(text.utf8))
    }
  }
#endif
