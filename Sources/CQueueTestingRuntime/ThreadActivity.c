#include "CQueueTestingRuntime.h"

// What another thread of this process is doing, for the watcher of a run's job slice: a job that
// has run past its slice is let go only if it computed for that long or waits now, not when the
// machine merely gave its thread no processor (a loaded machine must not change a schedule).

#if defined(__linux__)
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

uint64_t qt_thread_cpu_nanoseconds(uintptr_t thread) {
  clockid_t clock;
  if (pthread_getcpuclockid((pthread_t)thread, &clock) != 0) return UINT64_MAX;
  struct timespec now;
  // A thread's CPU clock never follows virtual time (see `VirtualTimeReads.c`).
  if (clock_gettime(clock, &now) != 0) return UINT64_MAX;
  return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

int qt_kernel_thread_is_waiting(long kernelThread) {
  if (kernelThread <= 0) return -1;
  char path[64];
  snprintf(path, sizeof path, "/proc/self/task/%ld/stat", kernelThread);
  int file = open(path, O_RDONLY | O_CLOEXEC);
  if (file < 0) return -1;
  char text[512];
  ssize_t count = read(file, text, sizeof text - 1);
  close(file);
  if (count <= 0) return -1;
  text[count] = 0;
  // "tid (name) S ...": the name may hold spaces and parentheses, so the state follows the last ')'.
  char *end = strrchr(text, ')');
  if (!end || end[1] != ' ') return -1;
  char state = end[2];
  // Sleeping, or in uninterruptible wait (I/O); R is running or runnable.
  return state == 'S' || state == 'D' ? 1 : 0;
}

#else

uint64_t qt_thread_cpu_nanoseconds(uintptr_t thread) {
  (void)thread;
  return UINT64_MAX;
}

int qt_kernel_thread_is_waiting(long kernelThread) {
  (void)kernelThread;
  return -1;
}

#endif
