// Planted into AsyncQueue by .ci/availability.sh: the check must report lines 3 and 13 only.
func plantedUncovered() {
  _ = Task.immediate {}
}

func plantedCovered() {
  if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) { _ = Task.immediate {} }
}

func plantedHalfCovered() {
  if #available(macOS 26, *) {
    // macOS is covered, the other platforms are not.
    _ = Task.immediate {}
  }
}

func plantedGuard() {
  guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
  _ = Task.immediate {}
}

func plantedUnavailableElse() {
  if #unavailable(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26) {
  } else {
    _ = Task.immediate {}
  }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
func plantedAnnotated() {
  _ = Task.immediate {}
}
