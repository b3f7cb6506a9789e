// Allocation counting for the SDP benchmark: each allocating entry point bumps one relaxed atomic counter and
// forwards to glibc's implementation. free is left to glibc (it accepts what __libc_malloc returned).
#include "CMallocCounter.h"
#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static uint64_t allocations;

static inline void count(void) { __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED); }

uint64_t malloc_counter_allocations(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }

void *malloc(size_t size) { count(); return __libc_malloc(size); }
void *calloc(size_t count_, size_t size) { count(); return __libc_calloc(count_, size); }
void *realloc(void *pointer, size_t size) { count(); return __libc_realloc(pointer, size); }
void *memalign(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}
