/* record.h — the one record shape: table schemas, records and sinks.
 *
 * Every table has a fixed, documented schema (docs/csv.md). A record carries
 * the provenance columns every table shares, then the table's own columns:
 *
 *   source, line, message_id, date, subject, quoted, group, group_source,
 *   run, copy_of, <columns…>
 *
 *   source      input name as given ("-" for stdin)
 *   line        1-based line of the record's first line in source
 *   message_id  Message-ID of the mail the record came from ("" otherwise)
 *   date        the message's Date, ISO 8601 with offset ("" otherwise)
 *   subject     the message's Subject ("" otherwise)
 *   quoted      quote depth of the record's lines (0 = not quoted)
 *   group       the record's group: nearest label before it (kernel name,
 *               short heading), else for mail the kernel the message
 *               names or its thread, for a file its stem; see core/ctx.h
 *   group_source where group came from: option, label, kernel, subject,
 *               thread, file (core/ctx.h)
 *   run         1-based run number within (group, run family)
 *   copy_of     FILE:LINE of the block this record's block copies, or
 *               empty (core/block.h)
 *
 * Parsers define their tables (struct bl_table_def) next to their code and
 * list them in their struct bl_parser. Records are pushed to every sink of the
 * context (CSV files, in-memory collectors, aggregators), in input order.
 */
#ifndef BL_RECORD_H
#define BL_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include "core/line.h"

enum bl_vtype {
	BL_NULL = 0,   /* unknown: written as an empty CSV field */
	BL_NUM,        /* double, written round-trip exact */
	BL_INT,        /* long long */
	BL_STR,        /* text, RFC 4180-quoted when needed */
};

struct bl_val {
	enum bl_vtype t;
	union {
		double d;
		long long i;
		const char *s;  /* borrowed: valid until the record is emitted */
	} u;
};

/* What a column is for: the statistics commands take measures by default
 * and leave the rest out (docs/stats.md, R6). */
enum bl_role {
	BL_ROLE_MEASURE = 0, /* how the run went: time, memory, faults, rates */
	BL_ROLE_ID,          /* where the row is within its input: a sample
				number, a time offset, a thread, an input line */
	BL_ROLE_LABEL,       /* what the row is about: text, a tool setting
				(interval, -p), a count of runs, a bucket's
				weight, how long the run was */
};

/* Which way a measure is better (docs/stats.md, R1). */
enum bl_better {
	BL_BETTER_NONE = 0,    /* neither, or not stated */
	BL_BETTER_LOWER = -1,
	BL_BETTER_HIGHER = 1,
};

/* A column of a table: the one place its facts are written. */
struct bl_col_def {
	const char *name;      /* column name, with unit suffix (elapsed_s, max_rss_kib) */
	enum bl_vtype type;    /* BL_NUM, BL_INT or BL_STR */
	const char *doc;       /* one line: meaning, unit and where it comes from */
	const char *unit;      /* of the values: "s", "us", "KiB", "bytes", "%",
				  "KiB/s", "/s" (per second), …; the name of the
				  column that states it per row ("mem_unit");
				  "" for counts, text and numbers without one */
	enum bl_role role;
	enum bl_better better; /* BL_BETTER_NONE for what is not a measure */
};

struct bl_table_def {
	const char *name;      /* fixed, documented: "time", "mtest01", … */
	const char *doc;       /* one line */
	size_t ncols;          /* table's own columns (without provenance) */
	const struct bl_col_def *cols;
	/* More about the table than its one-line doc, or NULL: Markdown
	 * (paragraphs or "- " items, lines joined with \n) that
	 * `benchlog formats --columns` prints after the column list, and so
	 * docs/csv.md. */
	const char *notes;
	/* What the statistics commands need to know (docs/stats.md): */
	const char *group_col;  /* the column that tells compared sets apart:
				   "group" (the label before the data), or
				   the table's own (contest_report: kernel) */
	const char *split_col;  /* rows measure a different workload per value
				   of this column (contest: load): statistics
				   are made per value; NULL when none */
	const char *runs_col;   /* every row is already the mean of this many
				   runs and carries no spread (averages);
				   NULL for a table of runs */
	const char *weight_col; /* every row is a histogram bucket weighted by
				   this column (latency: count): one row is
				   not one sample; NULL otherwise */
	const char *since_boot_col; /* a row whose value here is non-zero
				   holds averages since boot, not a sample
				   (vmstat's first row): left out of statistics
				   unless --since-boot keep
				   (bl_since_boot_left_out(), core/ctx.h);
				   NULL when none */
	const char *time_series; /* rows are consecutive samples of a time
				   series (vmstat, vmstat_disk), not
				   independent values: no D5 interval of
				   their mean. The text (a clause, no final
				   stop) says what to read instead, for
				   stats' note: D15's interval per series
				   (analyze/vmstat.h), or the change between
				   samples of counters since boot. NULL for
				   a table of independent rows */
	const int *failed_cols;  /* columns (indices, ended by -1) that say
				   a run failed (time: status, exit_status).
				   A row with a non-empty text or a non-zero
				   number in any is a failed run: kept in the
				   table, left out of statistics, comparisons
				   and charts (docs/statistics.md D3c;
				   bl_record_failed()); NULL when none */
};

/* The definition of column name in t (case-insensitive), or NULL. */
const struct bl_col_def *bl_table_coldef(const struct bl_table_def *t, const char *name);

#define BL_MAX_COLS 48
/* Number of shared provenance columns in front of every table's own. */
#define BL_PROV_COLS 10
/* Their indices, in the order above. */
enum { BL_PC_SOURCE, BL_PC_LINE, BL_PC_MESSAGE_ID, BL_PC_DATE, BL_PC_SUBJECT, BL_PC_QUOTED,
       BL_PC_GROUP, BL_PC_GROUP_SOURCE, BL_PC_RUN, BL_PC_COPY_OF };
extern const char *const bl_prov_col_names[BL_PROV_COLS];

/* The values of a record as the input wrote them, when that is what the
 * writers would write: the line's numbers (tokens) as a scanner wrote
 * them into text (core/util.h bl_scan_uints: each followed by one ','),
 * and which token is which column. Column i's text is token t = tok[i]'s
 * nd[t] bytes at text + at[t] when t != BL_NO_TOKEN and 0 < nd[t] <
 * BL_SCAN_COPY (core/util.h; canonical decimal digits: no leading zero),
 * and BL_SCAN_COPY bytes can be read there (a writer copies that many at
 * once); otherwise the text is made from the value. tok[] names only
 * columns that hold a number; gen changes whenever tok does
 * (bl_gen_new()). The parser's, borrowed like a text value: the tokens
 * per row, tok per layout (parse -t vmstat of 20 MB: 852 M instructions,
 * 884 M with a column's place and length copied per row). */
#define BL_NO_TOKEN 0xff
struct bl_digits {
	const char *text;
	const unsigned short *at;
	const unsigned char *nd;
	unsigned char tok[BL_MAX_COLS];
	unsigned long gen;
	bool whole;                /* every token's text is copied (0 < nd < BL_SCAN_COPY) */
};

struct bl_record {
	const struct bl_table_def *table;
	const char *source;
	unsigned long line;
	const struct bl_msg *msg;  /* NULL when not from mail */
	int quoted;
	const char *group;
	const char *group_source;  /* static string, see core/ctx.h */
	long run;                  /* 0 = not applicable (written empty) */
	/* Set by bl_emit(): records with the same non-zero prov_gen have the
	 * same source, msg, group and group_source (a writer keeps their text
	 * without comparing strings); 0 = not known (the parser set group). */
	unsigned long prov_gen;
	/* NULL, or "FILE:LINE" of the first block of which this record's
	 * block is a copy (core/block.h B4); set by the context when it
	 * hands the record on, valid while the sink has it. */
	const char *copy_of;
	const struct bl_digits *digits; /* NULL, or where values' text is (above) */
	/* Records with the same non-zero const_gen (bl_gen_new()) and
	 * const_cols hold the same value in each column i whose bit
	 * (const_cols >> i & 1) is set: a writer makes their text once. */
	unsigned long const_gen;
	unsigned long long const_cols;
	struct bl_val v[BL_MAX_COLS]; /* the table's own columns, in schema order */
};

/* Start a record for table t whose first line is ln: copies provenance,
 * sets every value to BL_NULL. group/run are filled by bl_emit(). */
void bl_record_init(struct bl_record *r, const struct bl_table_def *t, const struct bl_line *ln);
/* The same for a record made again in place: provenance only, its values
 * and const_gen kept. */
void bl_record_at(struct bl_record *r, const struct bl_line *ln);
/* A number no call returned before (for const_gen), from any thread. */
unsigned long bl_gen_new(void);
static inline void bl_set_num(struct bl_record *r, size_t col, double d)
{ r->v[col].t = BL_NUM; r->v[col].u.d = d; }
static inline void bl_set_int(struct bl_record *r, size_t col, long long i)
{ r->v[col].t = BL_INT; r->v[col].u.i = i; }
static inline void bl_set_str(struct bl_record *r, size_t col, const char *s)
{ r->v[col].t = BL_STR; r->v[col].u.s = s; }
/* Column index of name in t, or -1. */
int bl_table_col(const struct bl_table_def *t, const char *name);
/* D3c: a value of a failed_cols column that says the run failed: a
 * non-empty text or a non-zero number. */
bool bl_failed_value(const struct bl_val *v);
/* D3c: r is a failed run (a failed_cols column of its table says so). */
bool bl_record_failed(const struct bl_record *r);

/* A sink receives every emitted record (a record of a copied block only
 * when copies is true: the table writers; an analysis leaves copies out,
 * core/block.h B4). record() returns 0 or a negative
 * bl_err; an error stops the run. finish() is called once at the end with
 * ok != 0 when the run succeeded (commit) or 0 (discard). */
struct bl_sink {
	int (*record)(void *ud, const struct bl_record *r);
	int (*finish)(void *ud, int ok);
	void (*free)(void *ud);
	void *ud;
	bool copies;
};

#endif
