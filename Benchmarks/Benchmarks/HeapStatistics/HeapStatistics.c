#include "HeapStatistics.h"

#include <stdlib.h>  // defines __GLIBC__ where glibc is the C library

#if defined(__APPLE__)
#include <malloc/malloc.h>

size_t heap_bytes_in_use(void) {
  malloc_statistics_t statistics;
  malloc_zone_statistics(NULL, &statistics);
  return statistics.size_in_use;
}
#elif defined(__GLIBC__)
#include <malloc.h>

size_t heap_bytes_in_use(void) {
  // In-use chunks of every arena (headers included) and mmapped blocks.
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}
#else
size_t heap_bytes_in_use(void) { return 0; }
#endif
