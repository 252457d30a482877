/* vmstat.h — the tables the vmstat parser (parsers/vmstat.c) writes, for
 * the modules that read them by symbol (analyze/vmstat.c, report, plots):
 * `vmstat`, one row per sample line, and `events`, one row per prose line
 * between two rows of a series. Their columns, units among them, are
 * documented in their definitions in vmstat.c (docs/csv.md).
 */
#ifndef BL_VMSTAT_H
#define BL_VMSTAT_H

#include "core/record.h"

extern const struct bl_table_def bl_table_vmstat;
extern const struct bl_table_def bl_table_events;

enum bl_vmstat_col {
	VM_SERIES, VM_SAMPLE, VM_T_S, VM_SINCE_BOOT, VM_LAYOUT,
	VM_R, VM_B, VM_W,
	VM_SWPD, VM_FREE, VM_BUFF, VM_CACHE, VM_INACT, VM_ACTIVE,
	VM_SI, VM_SO, VM_BI, VM_BO, VM_IN, VM_CS,
	VM_US, VM_SY, VM_ID, VM_WA, VM_ST, VM_GU,
	VM_MEM_UNIT, VM_TIMESTAMP, VM_TZ,
	/* FreeBSD only */
	VM_AVM, VM_FLT, VM_RE, VM_PI, VM_PO, VM_FR, VM_SR, VM_SYS_CALLS,
	VM_DISKS, VM_PER_CPU,
	VM_NCOLS
};

/* The numeric sample columns, in table order: VM_R..VM_GU and
 * VM_AVM..VM_SYS_CALLS. */
static inline int bl_vmstat_is_value_col(int c)
{
	return (c >= VM_R && c <= VM_GU) || (c >= VM_AVM && c <= VM_SYS_CALLS);
}

enum bl_events_col { EV_SERIES, EV_SAMPLE, EV_TEXT, EV_KIND, EV_NCOLS };

#endif
