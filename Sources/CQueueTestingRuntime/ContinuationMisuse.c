#include "CQueueTestingRuntime.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// What the runtime says about a misused continuation, as it says it.
//
// A `CheckedContinuation` dropped without being resumed makes the runtime report "SWIFT TASK
// CONTINUATION MISUSE: f() leaked its continuation without resuming it" through
// `swift_reportError`, on standard error, and the task that awaited it waits forever. A run
// that sees that message knows at once why nothing can go on, instead of waiting out its
// outside-work timeout, and its report quotes the runtime. The test binary defines
// `swift_reportError` weakly (the concurrency runtime calls the core runtime's through the
// dynamic linker), notes the messages about continuations, and forwards every message.

enum { QTMaximumMessages = 8, QTMessageLength = 512 };

__attribute__((weak)) void swift_reportError(uint32_t flags, const char *message);

static void (*realReportError)(uint32_t, const char *);
static pthread_once_t findOnce = PTHREAD_ONCE_INIT;
static pthread_mutex_t notes = PTHREAD_MUTEX_INITIALIZER;
static char messages[QTMaximumMessages][QTMessageLength];
static int messageCount;
static int watching;
static void (*noted)(void);

static void findReal(void) {
  void *core = dlopen("libswiftCore.so", RTLD_LAZY | RTLD_NOLOAD);
  void *found = core ? dlsym(core, "swift_reportError") : NULL;
  if (!found) found = dlsym(RTLD_NEXT, "swift_reportError");
  if (!found || found == (void *)&swift_reportError) {
    fprintf(stderr, "QueueTesting: the runtime's swift_reportError was not found\n");
    abort();
  }
  realReportError = (void (*)(uint32_t, const char *))found;
}

__attribute__((weak)) void swift_reportError(uint32_t flags, const char *message) {
  pthread_once(&findOnce, findReal);
  if (message && strstr(message, "SWIFT TASK CONTINUATION MISUSE") && strstr(message, "leaked its continuation")) {
    void (*tell)(void) = NULL;
    pthread_mutex_lock(&notes);
    if (watching && messageCount < QTMaximumMessages) {
      snprintf(messages[messageCount], QTMessageLength, "%s", message);
      __atomic_store_n(&messageCount, messageCount + 1, __ATOMIC_RELEASE);
      tell = noted;
    }
    pthread_mutex_unlock(&notes);
    if (tell) tell();
  }
  realReportError(flags, message);
}

void qt_watch_leaked_continuations(bool on, void (*_Nullable tell)(void)) {
  pthread_mutex_lock(&notes);
  watching = on;
  __atomic_store_n(&messageCount, 0, __ATOMIC_RELEASE);
  noted = on ? tell : NULL;
  pthread_mutex_unlock(&notes);
}

int qt_leaked_continuation_count(void) {
  return __atomic_load_n(&messageCount, __ATOMIC_ACQUIRE);
}

int qt_leaked_continuation_messages(char *_Nonnull buffer, int capacity) {
  pthread_mutex_lock(&notes);
  int written = 0;
  buffer[0] = 0;
  for (int index = 0; index < messageCount; index++) {
    int length = snprintf(buffer + written, capacity - written, "%s%s", index ? "\n" : "", messages[index]);
    if (length < 0 || written + length >= capacity) break;
    written += length;
  }
  int count = messageCount;
  pthread_mutex_unlock(&notes);
  return count;
}

#else

int qt_leaked_continuation_count(void) { return 0; }

void qt_watch_leaked_continuations(bool on, void (*_Nullable tell)(void)) {
  (void)on;
  (void)tell;
}

int qt_leaked_continuation_messages(char *_Nonnull buffer, int capacity) {
  (void)capacity;
  buffer[0] = 0;
  return 0;
}

#endif
