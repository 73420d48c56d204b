// dladdr and Dl_info are GNU extensions in glibc.
#define _GNU_SOURCE
#include "CQueueTestingRuntime.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>

// Samples the call stack of another thread of this process: the watchdog's way of naming what a
// stuck job waits in (a semaphore, a condition, a lock, a sleep) without stopping the process.
//
// The thread is sent a real-time signal whose handler records its return addresses with
// `backtrace` into one shared buffer; the caller waits for the handler, then names the frames
// with `dladdr`, outside the handler. A thread blocked in a system call runs the handler (the
// call is interrupted and, with SA_RESTART, resumed), so a blocked thread is sampled as well as
// a spinning one. One sample at a time (a mutex): the buffer is shared.

enum { QTMaximumFrames = 64 };

static void *sampledFrames[QTMaximumFrames];
static int sampledCount;
static int sampleDone;
static pthread_mutex_t sampling = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t installOnce = PTHREAD_ONCE_INIT;
static int sampleSignal;

static void recordFrames(int signal) {
  (void)signal;
  __atomic_store_n(&sampledCount, backtrace(sampledFrames, QTMaximumFrames), __ATOMIC_RELAXED);
  __atomic_store_n(&sampleDone, 1, __ATOMIC_RELEASE);
}

static void install(void) {
  // `backtrace` loads the unwinder on its first call, which a signal handler must not do.
  void *warm[1];
  backtrace(warm, 1);
  sampleSignal = SIGRTMIN + 5;
  struct sigaction action = {0};
  action.sa_handler = recordFrames;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(sampleSignal, &action, NULL);
}

bool qt_allow_stack_samples(void) {
  pthread_once(&installOnce, install);
  // Threads of the cooperative pool (Dispatch's workers) block signals: the driver thread takes
  // this one for the length of a run, and gives the mask back after.
  sigset_t sample, previous;
  sigemptyset(&sample);
  sigaddset(&sample, sampleSignal);
  pthread_sigmask(SIG_UNBLOCK, &sample, &previous);
  return sigismember(&previous, sampleSignal) == 1;
}

void qt_restore_stack_samples(bool wasBlocked) {
  if (!wasBlocked) return;
  sigset_t sample;
  sigemptyset(&sample);
  sigaddset(&sample, sampleSignal);
  pthread_sigmask(SIG_BLOCK, &sample, NULL);
}

// Names of functions the dynamic symbol table does not list (a library's internal functions,
// such as Dispatch's `_dispatch_semaphore_wait_slow`, which its exported `dispatch_semaphore_wait`
// reaches by a tail call and so leaves no frame of its own), read from the file's full symbol
// table when it has one. Files are mapped once and kept: a few libraries at most.
enum { QTMaximumFiles = 16 };
static struct {
  const char *path;
  const ElfW(Sym) *symbols;
  size_t count;
  const char *strings;
} symbolFiles[QTMaximumFiles];
static int symbolFileCount;

static int loadSymbols(const char *path) {
  for (int index = 0; index < symbolFileCount; index++) {
    if (strcmp(symbolFiles[index].path, path) == 0) return index;
  }
  if (symbolFileCount == QTMaximumFiles) return -1;
  int index = symbolFileCount++;
  symbolFiles[index].path = strdup(path);
  int file = open(path, O_RDONLY | O_CLOEXEC);
  if (file < 0) return index;
  struct stat info;
  if (fstat(file, &info) != 0 || (size_t)info.st_size < sizeof(ElfW(Ehdr))) {
    close(file);
    return index;
  }
  const unsigned char *image = mmap(NULL, (size_t)info.st_size, PROT_READ, MAP_PRIVATE, file, 0);
  close(file);
  if (image == MAP_FAILED) return index;
  const ElfW(Ehdr) *header = (const ElfW(Ehdr) *)image;
  if (memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_shoff == 0
      || header->e_shoff + (size_t)header->e_shnum * sizeof(ElfW(Shdr)) > (size_t)info.st_size) {
    return index;
  }
  const ElfW(Shdr) *sections = (const ElfW(Shdr) *)(image + header->e_shoff);
  for (int section = 0; section < header->e_shnum; section++) {
    if (sections[section].sh_type != SHT_SYMTAB) continue;
    const ElfW(Shdr) *strings = &sections[sections[section].sh_link];
    if (sections[section].sh_offset + sections[section].sh_size > (size_t)info.st_size
        || strings->sh_offset + strings->sh_size > (size_t)info.st_size) {
      break;
    }
    symbolFiles[index].symbols = (const ElfW(Sym) *)(image + sections[section].sh_offset);
    symbolFiles[index].count = sections[section].sh_size / sizeof(ElfW(Sym));
    symbolFiles[index].strings = (const char *)(image + strings->sh_offset);
    break;
  }
  return index;
}

// The function of the file at `path`, loaded at `base`, that contains `address`, if its full
// symbol table says.
static const char *fullTableName(const char *path, void *base, void *address) {
  int index = loadSymbols(path);
  if (index < 0 || !symbolFiles[index].symbols) return NULL;
  uintptr_t offset = (uintptr_t)address - (uintptr_t)base;
  for (size_t symbol = 0; symbol < symbolFiles[index].count; symbol++) {
    const ElfW(Sym) *entry = &symbolFiles[index].symbols[symbol];
    if (ELF64_ST_TYPE(entry->st_info) != STT_FUNC || entry->st_size == 0) continue;
    if (offset >= entry->st_value && offset < entry->st_value + entry->st_size) {
      return symbolFiles[index].strings + entry->st_name;
    }
  }
  return NULL;
}

long qt_current_kernel_thread(void) {
  return (long)syscall(SYS_gettid);
}

int qt_thread_stack_symbols(uintptr_t thread, const char **names, int capacity, int timeoutMilliseconds) {
  pthread_once(&installOnce, install);
  pthread_mutex_lock(&sampling);
  __atomic_store_n(&sampleDone, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&sampledCount, 0, __ATOMIC_RELAXED);
  int found = 0;
  if (pthread_kill((pthread_t)thread, sampleSignal) == 0) {
    struct timespec pause = {0, 1000000};
    for (int waited = 0; waited < timeoutMilliseconds && !__atomic_load_n(&sampleDone, __ATOMIC_ACQUIRE); waited++) {
      nanosleep(&pause, NULL);
    }
    if (__atomic_load_n(&sampleDone, __ATOMIC_ACQUIRE)) {
      int count = __atomic_load_n(&sampledCount, __ATOMIC_RELAXED);
      for (int index = 0; index < count && found < capacity; index++) {
        Dl_info info;
        if (!dladdr(sampledFrames[index], &info)) continue;
        // A return address points just past its call: look one byte back, inside the caller.
        const char *name = info.dli_fname ? fullTableName(info.dli_fname, info.dli_fbase, (char *)sampledFrames[index] - 1) : NULL;
        if (!name) name = info.dli_sname;
        if (name) names[found++] = name;
      }
    }
  }
  pthread_mutex_unlock(&sampling);
  return found;
}

#else

bool qt_allow_stack_samples(void) { return false; }

long qt_current_kernel_thread(void) { return 0; }

void qt_restore_stack_samples(bool wasBlocked) { (void)wasBlocked; }

int qt_thread_stack_symbols(uintptr_t thread, const char **names, int capacity, int timeoutMilliseconds) {
  (void)thread;
  (void)names;
  (void)capacity;
  (void)timeoutMilliseconds;
  return 0;
}

#endif
