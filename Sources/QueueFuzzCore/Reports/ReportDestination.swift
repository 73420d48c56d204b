import Foundation

/// Where and in which form `run` and `stress` report: `--format text|json|junit` and
/// `--output FILE`.
///
/// Text is the console output. JSON or JUnit go to `--output FILE` when given (the console
/// still prints text), and otherwise to standard output in place of the text.
struct ReportDestination {
  /// The report's form.
  enum Format: String, CaseIterable {
    /// Lines for people (the default).
    case text
    /// ``FuzzReport`` as JSON.
    case json
    /// JUnit XML.
    case junit
  }

  let format: Format
  let outputPath: String?

  /// Reads `--format` and `--output`.
  init(_ reader: ArgumentReader) throws(ArgumentReader.UsageError) {
    format = try reader.choice("--format", default: Format.text)
    outputPath = reader.string("--output")
    if format == .text, outputPath != nil {
      throw ArgumentReader.UsageError(message: "--output FILE needs --format json or --format junit")
    }
  }

  /// Why `--output` cannot be written, checked before anything runs; nil when it can (or when
  /// there is no `--output`).
  var outputProblem: String? {
    outputPath.flatMap(OutputLocation.problemWritingFile(at:))
  }

  /// Removes an earlier report at `--output` before the session runs, so that a session killed
  /// before it writes its own leaves no file that looks like its result. Call after
  /// ``outputProblem`` said the path can be written.
  func removeStaleReport() {
    guard let outputPath, case .success(let file) = OutputFile.at(outputPath) else { return }
    file.removeStale()
  }

  /// Whether the report replaces the text on standard output.
  var takesStandardOutput: Bool { format != .text && outputPath == nil }

  /// The console the text goes to: `console`, or one whose standard output is silent when the
  /// report takes standard output.
  func textConsole(_ console: FuzzConsole) -> FuzzConsole {
    guard takesStandardOutput else { return console }
    return FuzzConsole(out: { _ in }, err: console.err)
  }

  /// Writes `report` (nothing for text); false, with an error printed, when the file cannot be
  /// written.
  func write(_ report: FuzzReport, console: FuzzConsole) -> Bool {
    let document: String
    switch format {
    case .text:
      return true
    case .json:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      guard let data = try? encoder.encode(report), let text = String(data: data, encoding: .utf8) else {
        console.err("queue-fuzz: error: cannot encode the JSON report")
        return false
      }
      document = text + "\n"
    case .junit:
      document = JUnitReport.xml(report)
    }
    guard let outputPath else {
      console.out(String(document.dropLast()))
      return true
    }
    do {
      try OutputFile.at(outputPath).get().write(Data(document.utf8))
    } catch {
      console.err("queue-fuzz: error: cannot write the report: \(error.message)")
      return false
    }
    return true
  }
}
