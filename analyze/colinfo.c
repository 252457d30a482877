/* colinfo.c — R1-R7 of analyze/colinfo.h. */
#include <stddef.h>
#include <string.h>
#include <strings.h>
#include "analyze/colinfo.h"
#include "core/util.h"
#include "parsers/parser.h"

/* R1a: what a table's definition says about its columns. Only columns
 * whose name rule would be wrong or silent are listed. */
static const struct {
	const char *table, *column;
	enum bl_better better;
} col_better[] = {
	/* ConTest: the share of CPU the compile got under load; more means
	 * the load disturbed it less (the "CPU%" reading). */
	{ "contest", "cpu_pct", BL_BETTER_HIGHER },
	{ "contest_report", "cpu_pct", BL_BETTER_HIGHER },
	/* contest -r Ratio: load time / no-load time, 1.00 is ideal. */
	{ "contest_report", "ratio", BL_BETTER_LOWER },
};

static bool ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && strcasecmp(s + n - m, suf) == 0;
}

static bool contains(const char *s, const char *needle)
{
	size_t m = strlen(needle);
	for (; *s; s++)
		if (strncasecmp(s, needle, m) == 0)
			return true;
	return false;
}

enum bl_better bl_col_better(const char *table, const char *column)
{
	if (!column)
		return BL_BETTER_UNSTATED;
	for (size_t i = 0; table && i < sizeof col_better / sizeof col_better[0]; i++)
		if (strcmp(col_better[i].table, table) == 0 &&
		    strcasecmp(col_better[i].column, column) == 0)
			return col_better[i].better;
	static const char *const higher_suf[] = { "_per_s", "_ops", "_mbps" };
	static const char *const higher_sub[] = { "throughput", "bandwidth", "allocated" };
	static const char *const lower_suf[] = { "_s", "_ms", "_us", "_ns", "_faults" };
	for (size_t i = 0; i < sizeof higher_suf / sizeof higher_suf[0]; i++)
		if (ends_with(column, higher_suf[i]))
			return BL_BETTER_HIGHER;
	for (size_t i = 0; i < sizeof higher_sub / sizeof higher_sub[0]; i++)
		if (contains(column, higher_sub[i]))
			return BL_BETTER_HIGHER;
	for (size_t i = 0; i < sizeof lower_suf / sizeof lower_suf[0]; i++)
		if (ends_with(column, lower_suf[i]))
			return BL_BETTER_LOWER;
	if (contains(column, "latency"))
		return BL_BETTER_LOWER;
	return BL_BETTER_UNSTATED;
}

const char *bl_better_name(enum bl_better b)
{
	return b == BL_BETTER_LOWER ? "lower" : b == BL_BETTER_HIGHER ? "higher" : "";
}

bool bl_table_holds_means(const char *table, const char **runs_col)
{
	static const char *const means[] = { "averages", "contest_report" };
	for (size_t i = 0; table && i < sizeof means / sizeof means[0]; i++)
		if (strcmp(table, means[i]) == 0) {
			if (runs_col)
				*runs_col = "runs";
			return true;
		}
	if (runs_col)
		*runs_col = NULL;
	return false;
}

const char *bl_table_split_column(const char *table)
{
	if (table && (strcmp(table, "contest") == 0 || strcmp(table, "contest_report") == 0))
		return "load";
	return NULL;
}

bool bl_col_is_provenance_number(const char *column)
{
	return column && (strcmp(column, "line") == 0 || strcmp(column, "run") == 0 ||
			  strcmp(column, "quoted") == 0);
}

const char *bl_table_group_column(const char *table)
{
	if (table && strcmp(table, "contest_report") == 0)
		return "kernel";
	return "group";
}

/* R6a: columns of a table that are positions, settings or counts of how
 * long a run was. */
static const struct {
	const char *table, *column;
} not_measure[] = {
	/* seconds since the series' first row: where a sample is */
	{ "vmstat", "t_s" },
	/* what mtest01 set out to fill: the -p setting and its bytes */
	{ "mtest01", "target_bytes" },
	{ "mtest01", "target_pct" },
	/* how many runs a mean covers (R2; listed for CSVs filed as "csv") */
	{ "averages", "runs" },
	{ "contest_report", "runs" },
	/* a weight of the bucket's value (R7) */
	{ "latency", "count" },
	/* how many rows and samples the run had: its length */
	{ "latency_series", "buckets" },
	{ "latency_series", "binned" },
	{ "latency_series", "total" },
	{ "latency_series", "footer_total" },
	{ "latency_series", "status_cycles" },
	{ "latency_series", "overflow_cycles_omitted" },
};

bool bl_col_is_measure(const char *table, const char *column)
{
	if (!column)
		return false;
	if (bl_col_is_provenance_number(column))
		return false;
	bool known = table && bl_table_find(table);
	for (size_t i = 0; i < sizeof not_measure / sizeof not_measure[0]; i++)
		if ((!known || strcmp(not_measure[i].table, table) == 0) &&
		    strcasecmp(not_measure[i].column, column) == 0)
			return false;
	static const char *const names[] = {
		"series", "sample", "since_boot", "thread", "tid", "priority",
		"exit_status", "page_size_bytes",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcasecmp(column, names[i]) == 0)
			return false;
	if (ends_with(column, "_line") || ends_with(column, "_code") ||
	    contains(column, "interval") || contains(column, "limit"))
		return false;
	return true;
}

bool bl_table_holds_histogram(const char *table)
{
	return table && strcmp(table, "latency") == 0;
}
