/* vmstat_int.h — what the tests (tests/test_vmstat.c) read of the vmstat
 * analysis's series beyond analyze/vmstat.h; not part of the public API:
 * the analysis writes its text from its series themselves, which may
 * have gone to a temporary file, and report/ reads that text. */
#ifndef BL_ANALYZE_VMSTAT_INT_H
#define BL_ANALYZE_VMSTAT_INT_H

#include "analyze/vmstat.h"

/* As bl_vmstat_colstat(): series i (S1), and interval k of it (S3),
 * final once the pass has ended (closed on first use). The pointer stays
 * valid until destroy(); NULL when i or k is out of range. */
const struct bl_vm_series_info *bl_vmstat_series(void *st, size_t i);
const struct bl_vm_interval *bl_vmstat_interval(void *st, size_t i, size_t k);

#endif
