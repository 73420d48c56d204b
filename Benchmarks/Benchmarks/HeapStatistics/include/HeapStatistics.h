#ifndef HEAP_STATISTICS_H
#define HEAP_STATISTICS_H

#include <stddef.h>

/// The bytes the C allocator has handed out and not taken back, with its own per-block overhead:
/// what live objects cost in memory. Returns 0 where the allocator cannot say.
size_t heap_bytes_in_use(void);

#endif
