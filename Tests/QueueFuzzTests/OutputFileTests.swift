import AsyncQueue
import Foundation
import QueueWorkloads
import Testing

@testable import QueueFuzzCore
@testable import QueueScenarios
@testable import QueueTestingEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension QueueFuzzCommandSuites {
  /// Reports and saved files never clobber what their path names: a regular file is replaced
  /// atomically, a link is followed, a FIFO or device is written in place, a folder or an empty
  /// path is refused before any work, and an earlier report is gone before the session runs.
  @Suite("queue-fuzz output files", .timeLimit(.minutes(5)), .hangGuard)
  struct OutputFileTests {
    static let oneScenario = scenariosFolder + "/fifo"

    /// `run … --format json --output PATH` on a small folder of scenarios.
    static func runReporting(to path: String) -> (Int32, CapturedConsole) {
      runFuzz(["run", oneScenario, "--schedules", "3", "--format", "json", "--output", path])
    }

    static func fileType(_ path: String) -> mode_t {
      var info = stat()
      guard lstat(path, &info) == 0 else { return 0 }
      return info.st_mode & S_IFMT
    }

    @Test func aRegularFileIsReplacedWithTheReport() throws {
      let folder = madeFolder("output-regular")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let path = folder + "/report.json"
      try "old".write(toFile: path, atomically: false, encoding: .utf8)
      let (status, _) = Self.runReporting(to: path)
      #expect(status == 0)
      let text = try String(contentsOfFile: path, encoding: .utf8)
      #expect(text.hasPrefix("{"))
      #expect(Self.fileType(path) == S_IFREG)
    }

    @Test func aLinkIsFollowedAndStaysALink() throws {
      let folder = madeFolder("output-link")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let target = folder + "/target.json"
      let link = folder + "/link.json"
      try "old".write(toFile: target, atomically: false, encoding: .utf8)
      try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.json")
      let (status, _) = Self.runReporting(to: link)
      #expect(status == 0)
      #expect(Self.fileType(link) == S_IFLNK, "the link was replaced by a file")
      #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("{"))
    }

    @Test func aFIFOIsWrittenInPlace() throws {
      let folder = madeFolder("output-fifo")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let fifo = folder + "/report.fifo"
      #expect(mkfifo(fifo, 0o600) == 0)
      // The reader: opening a FIFO for reading waits for the writer, then reads to its end.
      let read = LockedState<Data?>(nil)
      let reader = Thread {
        let data = FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile()
        read.withLock { $0 = data }
      }
      reader.start()
      let (status, _) = Self.runReporting(to: fifo)
      #expect(status == 0)
      #expect(Self.fileType(fifo) == S_IFIFO, "the FIFO was replaced by a file")
      // Bounded: if the report never reached the FIFO, its reader still waits for a writer;
      // opening the FIFO for writing (non-blocking, so no reader is needed) lets it finish.
      for _ in 0..<5_000 where read.withLock({ $0 }) == nil { usleep(1_000) }
      if read.withLock({ $0 }) == nil {
        Issue.record("the report never reached the FIFO's reader")
        close(open(fifo, O_WRONLY | O_NONBLOCK))
        return
      }
      #expect(String(decoding: read.withLock { $0 } ?? Data(), as: UTF8.self).hasPrefix("{"))
    }

    /// Classification only: a test that wrote to a system device would replace it if this
    /// regressed (the in-place write itself is the FIFO test's).
    @Test func aCharacterDeviceIsWrittenInPlace() throws {
      #expect(Self.fileType("/dev/null") == S_IFCHR)
      #expect(try OutputFile.at("/dev/null").get().kind == .inPlace)
    }

    @Test(arguments: ["", "FOLDER"])
    func aFolderOrAnEmptyPathIsRefusedBeforeAnyWork(path: String) {
      let folder = madeFolder("output-folder")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let output = path == "FOLDER" ? folder : path
      let (status, captured) = Self.runReporting(to: output)
      #expect(status == 2)
      #expect(captured.err.contains("nothing was run"), "\(captured.err)")
      #expect(
        captured.err.contains(path.isEmpty ? "an empty path names no file" : "it is a folder"), "\(captured.err)")
      #expect(!captured.out.contains("scenario(s)"), "the session ran: \(captured.out)")
    }

    /// A read-only folder stops a user that cannot write there before any work; the superuser,
    /// who can (CI's containers run as root), gets the report.
    @Test func aReadOnlyFolderIsRefusedUnlessTheUserCanWriteAnyway() throws {
      let folder = madeFolder("output-read-only")
      defer {
        chmod(folder, 0o755)
        try? FileManager.default.removeItem(atPath: folder)
      }
      #expect(chmod(folder, 0o555) == 0)
      let (status, captured) = Self.runReporting(to: folder + "/report.json")
      if geteuid() == 0 {
        #expect(status == 0)
        #expect(FileManager.default.fileExists(atPath: folder + "/report.json"))
      } else {
        #expect(status == 2)
        #expect(captured.err.contains("is not writable"), "\(captured.err)")
      }
    }

    @available(ExecutorHooks 1.0, *)
    @Test func anEarlierReportIsRemovedBeforeTheSessionRuns() throws {
      let folder = madeFolder("output-stale")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let path = folder + "/report.json"
      try "{\"from\": \"an earlier session\"}".write(toFile: path, atomically: false, encoding: .utf8)
      let seenDuringTheSession = LockedState<Bool?>(nil)
      let console = CapturedConsole()
      let status = RunCommand.run(
        ["run", Self.oneScenario, "--schedules", "3", "--format", "json", "--output", path].dropFirst().map { $0 },
        console: console.console
      ) {
        seenDuringTheSession.withLock { seen in
          if seen == nil { seen = FileManager.default.fileExists(atPath: path) }
        }
        return false
      }
      #expect(status == 0)
      #expect(seenDuringTheSession.withLock { $0 } == false, "the earlier report was still there while the session ran")
      #expect(!(try String(contentsOfFile: path, encoding: .utf8)).contains("an earlier session"))
    }

    @Test func shrinkChecksItsOutputBeforeSearching() {
      let (status, captured) = runFuzz([
        "shrink", scenariosFolder + "/fifo/" + firstScenario(in: scenariosFolder + "/fifo"), "--out",
        "/no/such/folder/x.scenario",
      ])
      #expect(status == 2)
      #expect(captured.err.contains("--out: cannot write /no/such/folder/x.scenario"), "\(captured.err)")
      #expect(captured.out.isEmpty, "the search ran: \(captured.out)")
    }

    /// SIGTERM (what `timeout` and CI cancellation send) stops a session as Ctrl-C does: the
    /// summary is printed, named for the signal, and the exit status is 130.
    @Test func sigtermStopsASessionCleanly() async {
      let child = await #expect(processExitsWith: .exitCode(130), observing: [\.standardOutputContent]) {
        let raised = LockedState(false)
        let console = FuzzConsole(
          out: { line in
            print(line)
            if !raised.withLock({ raised in
              defer { raised = true }
              return raised
            }) {
              raise(SIGTERM)
            }
          }, err: { _ in })
        // A short session: if SIGTERM went unhandled, it ends by itself (exit 0) and the test fails.
        exit(QueueFuzz.main(["stress", "--duration", "3s", "--seed", "1"], console: console))
      }
      let output = String(decoding: child?.standardOutputContent ?? [], as: UTF8.self)
      #expect(output.contains("queue-fuzz stress: 0 scenario(s), 0 schedules in "))
      #expect(output.contains("interrupted by SIGTERM"))
    }
  }
}

/// A new, empty temporary folder.
func madeFolder(_ label: String) -> String {
  let folder = temporaryFolder(label)
  try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  return folder
}

/// The first scenario file's name in `folder`.
func firstScenario(in folder: String) -> String {
  ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".scenario") }.sorted()
    .first ?? "missing.scenario"
}
