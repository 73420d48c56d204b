import Foundation
import QueueScenarios
import QueueTestingEngine
import QueueWorkloads
import Testing

@testable import QueueFuzzCore

extension QueueFuzzCommandSuites {
  /// Problems found before any work, a run that stops early with its summary, and no trap on
  /// odd sizes.
  @Suite("queue-fuzz robustness", .timeLimit(.minutes(5)), .hangGuard)
  struct CommandRobustnessTests {
    static let corpusFile = scenariosFolder + "/fifo/suspend-between-work.scenario"

    @Test func anUnwritableReportIsFoundBeforeRunning() {
      let (status, output) = runFuzz([
        "run", Self.corpusFile, "--format", "json", "--output", "/no/such/folder/report.json",
      ])
      #expect(status == 2)
      #expect(output.err.contains("the folder /no/such/folder does not exist; nothing was run"), "\(output.err)")
      #expect(!output.out.contains("PASS"))
    }

    /// A folder that permission bits call writable but that cannot hold a file (a root user's
    /// view of `/proc`) is found before any work, for saved failures and for pictures alike.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self")))
    func aFolderThatCannotBeMadeIsFoundBeforeAnyWork() {
      let (status, output) = runFuzz(["stress", "--count", "1", "--failures", "/proc/queue-fuzz-x"])
      #expect(status == 2)
      #expect(output.err.contains("cannot save files in /proc/queue-fuzz-x"), "\(output.err)")
      #expect(!output.out.contains("scenario(s)"), "\(output.out)")
      let (runStatus, runOutput) = runFuzz(["run", Self.corpusFile, "--html", "/proc/queue-fuzz-x"])
      #expect(runStatus == 2)
      #expect(runOutput.err.contains("nothing was run"), "\(runOutput.err)")
      #expect(!runOutput.out.contains("PASS"))
    }

    /// `--version`, `help COMMAND`, and "did you mean" for a mistyped command or option, or an
    /// option written with `=`.
    @Test func theCommandLineHelpsWithMistakes() {
      let (versionStatus, version) = runFuzz(["--version"])
      #expect(versionStatus == 0)
      #expect(version.out.hasPrefix("queue-fuzz "), "\(version.out)")
      #expect(version.out.contains("scenario format \(ScenarioParser.formatVersion)"))
      let (helpStatus, help) = runFuzz(["help", "run"])
      #expect(helpStatus == 0)
      #expect(help.out.hasPrefix("USAGE: queue-fuzz run PATH..."), "\(help.out)")
      let (typoStatus, typo) = runFuzz(["rnu", Self.corpusFile])
      #expect(typoStatus == 2)
      #expect(typo.err.contains("unknown command 'rnu' (did you mean 'run'?)"), "\(typo.err)")
      let (helpTypoStatus, helpTypo) = runFuzz(["help", "strss"])
      #expect(helpTypoStatus == 2)
      #expect(helpTypo.err.contains("unknown command 'strss' (did you mean 'stress'?)"), "\(helpTypo.err)")
      let (optionStatus, option) = runFuzz(["run", Self.corpusFile, "--schedule", "3"])
      #expect(optionStatus == 2)
      #expect(option.err.contains("unknown option '--schedule' (did you mean '--schedules'?)"), "\(option.err)")
      let (equalsStatus, equals) = runFuzz(["run", Self.corpusFile, "--schedules=3"])
      #expect(equalsStatus == 2)
      #expect(equals.err.contains("write '--schedules 3' (a space, not '=')"), "\(equals.err)")
    }

    @Test func anUnwritableFailuresFolderIsFoundBeforeStressing() {
      let (status, output) = runFuzz(["stress", "--count", "1", "--failures", Self.corpusFile + "/inside"])
      #expect(status == 2)
      #expect(output.err.contains("nothing was run"), "\(output.err)")
      let (reportStatus, reportOutput) = runFuzz([
        "stress", "--count", "1", "--format", "junit", "--output", "/no/such/folder/r.xml",
      ])
      #expect(reportStatus == 2)
      #expect(reportOutput.err.contains("does not exist"))
    }

    @available(ExecutorHooks 1.0, *)
    @Test func ctrlCStopsARunWithItsSummary() {
      let captured = CapturedConsole()
      let status = RunCommand.run([scenariosFolder], console: captured.console, shouldStop: { true })
      #expect(status == 130)
      #expect(captured.out.contains("0 passed, 0 failed"))
      #expect(captured.out.contains("scenario(s) not run (interrupted by Ctrl-C)"))
    }

    @available(ExecutorHooks 1.0, *)
    @Test func aRunStopsAtItsMemoryLimit() {
      let captured = CapturedConsole()
      let status = RunCommand.run(
        [scenariosFolder, "--memory-limit", "100"], console: captured.console, shouldStop: { false },
        residentMegabytes: { 101 })
      #expect(status == 1)
      #expect(captured.out.contains("stopping early: 101 MB resident, over --memory-limit 100"))
      #expect(captured.out.contains("not run (memory limit)"))
    }

    @Test func generateRefusesToFillTheDisk() {
      let (status, output) = runFuzz([
        "generate", "--out", "/tmp/never-written", "--count", "1000000", "--items", "1000", "--steps", "100",
      ])
      #expect(status == 2)
      #expect(output.err.contains("at most 10000000 lines at once"), "\(output.err)")
      #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written"))
    }
  }
}
