// queue-fuzz: the command line over QueueTesting's scenario runner; see QueueFuzz.
import Foundation
import QueueFuzzCore

exit(QueueFuzz.main(Array(CommandLine.arguments.dropFirst())))
