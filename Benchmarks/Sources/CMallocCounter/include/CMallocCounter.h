#ifndef CMALLOCCOUNTER_H
#define CMALLOCCOUNTER_H
#include <stdint.h>

/// Number of malloc, calloc, realloc, posix_memalign, aligned_alloc and memalign calls made by this process
/// since it started (all threads). The definitions in this target replace glibc's for the whole process, because
/// the executable's symbols come first in the dynamic lookup order; they forward to glibc's __libc_* functions.
uint64_t malloc_counter_allocations(void);

#endif
