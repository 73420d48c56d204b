// queue-fuzz: replays enqueue/suspend scenarios under many schedules (issue #5).
//
// Until the scenario format and the controlled executor land, `run` only validates its arguments
// and lists the scenario files it would replay; it says so plainly instead of claiming a proof.
import Foundation

let usage = """
  USAGE: queue-fuzz run PATH...

  Replays the scenario files (*.scenario) found in PATH (files or folders, searched recursively).

  Status: the scenario format and the schedule explorer are not implemented yet (issue #5);
  `run` lists the scenario files it finds and exits 0, or exits 2 on a bad path.
  """

func scenarioFiles(under path: String) -> [String]? {
  var isDirectory: ObjCBool = false
  guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
  guard isDirectory.boolValue else { return [path] }
  let enumerator = FileManager.default.enumerator(atPath: path)
  var found: [String] = []
  while let relative = enumerator?.nextObject() as? String {
    if relative.hasSuffix(".scenario") { found.append((path as NSString).appendingPathComponent(relative)) }
  }
  return found.sorted()
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty || arguments.contains("--help") || arguments.contains("-h") {
  print(usage)
  exit(arguments.isEmpty ? 2 : 0)
}
let command = arguments.removeFirst()
guard command == "run" else {
  FileHandle.standardError.write(Data("queue-fuzz: error: unknown command '\(command)'\n\(usage)\n".utf8))
  exit(2)
}
guard !arguments.isEmpty else {
  FileHandle.standardError.write(Data("queue-fuzz: error: 'run' needs at least one PATH\n".utf8))
  exit(2)
}
var files: [String] = []
for path in arguments {
  guard let found = scenarioFiles(under: path) else {
    FileHandle.standardError.write(Data("queue-fuzz: error: no such file or directory: \(path)\n".utf8))
    exit(2)
  }
  files += found
}
print("queue-fuzz: found \(files.count) scenario file(s) in \(arguments.joined(separator: " "))")
for file in files { print("  \(file)") }
print("queue-fuzz: scenario replay is not implemented yet (issue #5); nothing was checked.")
