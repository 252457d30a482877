/* analysis_opts.h — options the analysing commands (summary, plot, report)
 * share on top of cli_common_opts; they fill struct bl_analysis_opts
 * (analyze/analysis.h). Long-only, values from 1900 so they never meet a
 * command's own option codes (OPT_CLI_LAST + n).
 *
 *   --target DURATION   latency target for every series ("0.2s", "200ms",
 *                       "50us"; a bare number is seconds): target_s.
 *                       Default (NaN): the stated period, 0 for
 *                       cyclictest, else the median (D17).
 *   --late LIST         lateness thresholds, comma-separated durations
 *                       ("10ms,50ms,100ms"): late_s / nlate, at most
 *                       CLI_MAX_LATE. Default: 10, 50, 100 ms for series in
 *                       s or ms, 10, 50, 100 us for series in us or ns
 *                       (analyze/latency.h T4).
 */
#ifndef BL_CLI_ANALYSIS_OPTS_H
#define BL_CLI_ANALYSIS_OPTS_H

#include <getopt.h>
#include "analyze/analysis.h"
#include "cli/cli.h"
#include "core/record.h"

enum { OPT_TARGET = 1900, OPT_LATE };
#define CLI_MAX_LATE 16

/* --target and --late, for the options of summary, plot, report and
 * compare (cli/cli.h, struct cli_opt). */
extern const struct cli_opt cli_analysis_opts[];

/* Handle --target/--late for command cmd. Returns 1 when handled, 0 when c
 * is not one of them, -1 on a bad value (usage error printed). The
 * thresholds are kept in static storage: ao->late_s stays valid for the
 * life of the process. */
int cli_analysis_opt(int c, const char *arg, const char *cmd, struct bl_analysis_opts *ao);

#endif
