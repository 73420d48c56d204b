/// Where an assertion was written: what Swift Testing and XCTest need to point a failure at the
/// caller's line rather than at QueueTesting's.
///
/// Assertions take `fileID`, `filePath`, `line` and `column` as defaulted parameters (`#fileID`,
/// `#filePath`, `#line`, `#column`) and pass them on, so a helper of your own can forward its
/// caller's location the same way.
public struct CallSite: Sendable, CustomStringConvertible {
  /// The file's `#fileID` ("Module/File.swift").
  public var fileID: String
  /// The file's `#filePath`, which XCTest needs as a `StaticString`.
  public var filePath: StaticString
  /// The line, from 1.
  public var line: UInt
  /// The column, from 1.
  public var column: UInt

  /// Creates a call site; with no arguments, the caller's own location.
  public init(
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// "Module/File.swift:12:5".
  public var description: String { "\(fileID):\(line):\(column)" }
}
