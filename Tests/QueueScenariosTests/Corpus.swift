import Foundation

/// The corpus folder of this package.
let scenariosFolder = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Scenarios").path
