#ifndef QT_OUTSIDE_WORK_COUNTS_H
#define QT_OUTSIDE_WORK_COUNTS_H

// What the sources of outside work share (private to this library): whether the calling thread
// counts for the active run, the run's work not done yet, and its counts. Each source of outside
// work (`DispatchWork.c`, `DispatchSources.c`, `ThreadStarts.c`, `ThreadWakeUps.c`) is one file that interposes its
// calls and counts through these; `OutsideWorkCounts.c` starts and ends the counting.

#if defined(__linux__)
#include <stdbool.h>

// Set on the run's thread for the length of a run (see `qt_count_outside_work`).
extern _Thread_local int qt_counting __attribute__((tls_model("initial-exec")));
// Set while a source hands work to Dispatch: threads Dispatch starts for its own pool then, and
// the conditions it signals, are Dispatch's, not the run's.
extern _Thread_local int qt_inside_dispatch __attribute__((tls_model("initial-exec")));

// The counts of the run, reset as counting starts.
extern long qt_work_handed_to_dispatch;
extern long qt_threads_started;
extern long qt_threads_woken;

// Whether a call reached each source's definitions in this process (see `qt_outside_work_is_counted`).
extern int qt_dispatch_reached;
extern int qt_thread_start_reached;
extern int qt_wake_reached;

// Notes that the calling thread woke a thread that never says when it is done (see
// `ThreadWakeUps.c`): counted on the run's thread, outside its hand-overs to Dispatch. Every
// thread of the process signals conditions: the word that says a wake-up reached this library is
// stored once, not on every call, so that its cache line is not written back and forth.
static inline void qt_note_wake(void) {
  if (!__atomic_load_n(&qt_wake_reached, __ATOMIC_RELAXED)) __atomic_store_n(&qt_wake_reached, 1, __ATOMIC_RELAXED);
  if (qt_counting && !qt_inside_dispatch) __atomic_add_fetch(&qt_threads_woken, 1, __ATOMIC_RELAXED);
}

// Counts one piece of work not done yet for the active run; returns the run's number, for
// `qt_outside_work_done`. Only the run's own thread adds.
unsigned long long qt_outside_work_begun(void);

// The work counted for run `run` is done: counts it down, and tells the driver, unless a later
// run began meanwhile (work of an earlier run counts for nothing).
void qt_outside_work_done(unsigned long long run);

// The definition of `name` that this library's own weak definition stands in front of; aborts
// when there is none.
void *qt_find_real(void *library, const char *name);
#endif

#endif
