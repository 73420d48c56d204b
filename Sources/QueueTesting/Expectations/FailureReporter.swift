import Testing

#if canImport(XCTest)
  import XCTest
#endif

/// Records a test failure with the test library that runs the current test.
///
/// Swift Testing and XCTest do not see each other's failures: `Issue.record` inside an XCTest
/// test is dropped, and so is `XCTFail` inside a `@Test`. So a failure goes to Swift Testing when
/// `Test.current` is set (it is, in tasks a test creates, and in controlled runs, which inherit
/// task-local values) and to `XCTFail` otherwise.
public enum FailureReporter {
  /// Records `message` as a failure at `site`.
  public static func record(_ message: String, at site: CallSite) {
    if Test.current != nil {
      Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
    } else {
      #if canImport(XCTest)
        XCTFail(message, file: site.filePath, line: site.line)
      #endif
    }
  }
}

extension CallSite {
  /// The same place as Swift Testing sees it.
  var sourceLocation: SourceLocation {
    SourceLocation(fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
  }
}
