/* vmstat.h — the tables the vmstat parser (parsers/vmstat.c) writes, for
 * the modules that read them by symbol (analyze/vmstat.c, report, plots).
 *
 * Table `vmstat`: one row per vmstat sample line (docs/csv.md). Every
 * column is named as procps names it; a column the capture's layout does
 * not have is empty. Units are vmstat's own (FORMATS.md §2):
 *   memory columns (swpd free buff cache inact active, FreeBSD avm): in
 *     mem_unit, KiB unless the capture's command line said -S k|K|m|M;
 *   si, so: mem_unit per second (procps scales them with -S as well);
 *   bi, bo: blocks/s (procps < 4) = KiB/s (procps-ng >= 4, same numbers);
 *   in, cs: per second; us sy id wa st gu: % of CPU time.
 * Table `events`: one row per prose line found between two rows of a
 * series, anchored to the sample that follows it.
 */
#ifndef BL_VMSTAT_H
#define BL_VMSTAT_H

#include "core/record.h"

extern const struct bl_table_def bl_table_vmstat;
extern const struct bl_table_def bl_table_events;

enum bl_vmstat_col {
	VM_SERIES,        /* int: series id, 1-based, unique within a pass */
	VM_SAMPLE,        /* int: 0-based sample number within the series */
	VM_T_S,           /* num: seconds since the series' first sample */
	VM_SINCE_BOOT,    /* int: 1 = vmstat's since-boot average row */
	VM_LAYOUT,        /* str: layout name (docs/formats.md, "vmstat") */
	VM_R, VM_B, VM_W,
	VM_SWPD, VM_FREE, VM_BUFF, VM_CACHE, VM_INACT, VM_ACTIVE,
	VM_SI, VM_SO, VM_BI, VM_BO, VM_IN, VM_CS,
	VM_US, VM_SY, VM_ID, VM_WA, VM_ST, VM_GU,
	VM_MEM_UNIT,      /* str: KiB, kB, MiB or MB */
	VM_TIMESTAMP,     /* str: the row's own time stamp, as printed */
	VM_TZ,            /* str: its time zone (header or row), when printed */
	/* FreeBSD only */
	VM_AVM, VM_FLT, VM_RE, VM_PI, VM_PO, VM_FR, VM_SR, VM_SYS_CALLS,
	VM_DISKS,         /* str: "ada0=3 cd0=0", transfers/s per disk */
	VM_PER_CPU,       /* str: -P per-CPU "us/sy/id" triplets, ' '-separated */
	VM_NCOLS
};

/* The numeric sample columns, in table order: VM_R..VM_GU and
 * VM_AVM..VM_SYS_CALLS. */
static inline int bl_vmstat_is_value_col(int c)
{
	return (c >= VM_R && c <= VM_GU) || (c >= VM_AVM && c <= VM_SYS_CALLS);
}

enum bl_events_col {
	EV_SERIES,        /* int: the vmstat series */
	EV_SAMPLE,        /* int: the sample the line comes before */
	EV_TEXT,          /* str: the prose line, trimmed */
	EV_KIND,          /* str: stutter_start, stutter_end or note */
	EV_NCOLS
};

#endif
