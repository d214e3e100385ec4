/*
 * msg.h - every warning and error perfverdict prints comes from one
 * table (mandoc's enum mandocerr and mandoc_msg.c): each message has a
 * short stable code a script can filter on ("bad-number"), a level (a
 * note, a warning, or the kind of error) and
 * a fixed text saying what it means.  The level of an error decides the
 * exit status.  The call site adds the variable part (file:line, names,
 * the value) as the message's wording; the code never changes once
 * released, the wording may.  docs/messages.md lists every code.
 */
#ifndef PV_MSG_H
#define PV_MSG_H

enum pv_level {
	PV_LEVEL_NOTE,          /* information that asks for nothing: the
				 * run goes on; the report lists it */
	PV_LEVEL_WARNING,       /* the run goes on; the report lists it */
	PV_LEVEL_USAGE,         /* exit 2: command line or configuration */
	PV_LEVEL_INPUT,         /* exit 3: unreadable or malformed input */
	PV_LEVEL_FATAL,         /* exit 4: out of memory */
};

enum pv_msg {
	PV_M_NONE = 0,          /* no message (an unfilled struct pv_err) */

	/* warnings */
	PV_M_NO_DIRECTION,
	PV_M_TOO_NOISY,
	PV_M_WAIVER_EXPIRED,
	PV_M_IGNORED_FILE,
	PV_M_PARTLY_EMPTY,
	PV_M_SKIPPED_SAMPLE,
	PV_M_SKIPPED_NONFINITE,
	PV_M_FAILED_BENCHMARK,
	PV_M_FAILED_RUNS,
	PV_M_CPU_SCALING,
	PV_M_AGGREGATES_ONLY,
	PV_M_SUMMARY_ONLY,
	PV_M_NO_ROUNDS,
	PV_M_UNKNOWN_DIRECTION,
	PV_M_IGNORED_LINE,
	PV_M_NO_MEASUREMENTS,
	PV_M_IGNORED_PREAMBLE,
	PV_M_NO_TABLE,
	PV_M_NO_ROWS,
	PV_M_NO_VALUE_COLUMNS,
	PV_M_NO_BENCHMARK_JSON,
	PV_M_NO_SAVED_BASELINE,
	PV_M_NO_NAME,
	PV_M_NOT_A_POINT,
	PV_M_OTHER_MACHINE,
	PV_M_ENVIRONMENT_DIFFERS,
	PV_M_POOLED_BASELINE,
	PV_M_FEW_BASELINE_POINTS,
	PV_M_SPIKE_CANDIDATE,
	PV_M_TIME_TIE,
	PV_M_SHARED_EFFECT,
	PV_M_NUMBERED_TESTS,
	PV_M_UNCODED,

	/* usage errors (exit 2) */
	PV_M_USAGE,
	PV_M_UNKNOWN_COMMAND,
	PV_M_UNKNOWN_OPTION,
	PV_M_AMBIGUOUS_OPTION,
	PV_M_OPTION_NEEDS_VALUE,
	PV_M_OPTION_TAKES_NO_VALUE,
	PV_M_BAD_OPTION_VALUE,
	PV_M_SAME_OUTPUT,
	PV_M_CANNOT_WRITE,
	PV_M_UNKNOWN_FORMAT,
	PV_M_NO_SUCH_SUITE,
	PV_M_AMBIGUOUS_SUITE,
	PV_M_BAD_PATTERN,
	PV_M_SHARD_GATE_DIFFERS,
	PV_M_BAD_CRITERION_BASELINE,
	PV_M_BAD_ARGUMENT,
	PV_M_CONFIG_UNREADABLE,
	PV_M_CONFIG_TOO_LARGE,
	PV_M_CONFIG_BINARY,
	PV_M_CONFIG_SYNTAX,
	PV_M_BAD_VALUE,
	PV_M_BAD_SECTION,
	PV_M_DUPLICATE_SECTION,
	PV_M_UNKNOWN_KEY,
	PV_M_KEY_OUTSIDE_SECTION,
	PV_M_DUPLICATE_KEY,
	PV_M_CONFLICTING_VALUE,
	PV_M_NO_PATTERN,
	PV_M_KEY_COLUMN,
	PV_M_INCOMPLETE_WAIVER,

	/* input errors (exit 3) */
	PV_M_CANNOT_READ,
	PV_M_TOO_LARGE,
	PV_M_TOO_DEEP,
	PV_M_NOT_REGULAR_FILE,
	PV_M_NOT_A_TREE,
	PV_M_BAD_GZIP,
	PV_M_BINARY_FILE,
	PV_M_LINE_TOO_LONG,
	PV_M_NO_RESULT_FILES,
	PV_M_NO_RESULTS,
	PV_M_EMPTY_FILE,
	PV_M_UNKNOWN_FILE_FORMAT,
	PV_M_UNREADABLE_FILE,
	PV_M_CR_ONLY,
	PV_M_NO_SAMPLES,
	PV_M_NOTHING_COMPARED,
	PV_M_TOO_MANY_METRICS,
	PV_M_MALFORMED_JSON,
	PV_M_MALFORMED_XML,
	PV_M_MALFORMED_CSV,
	PV_M_BAD_STRUCTURE,
	PV_M_BAD_NUMBER,
	PV_M_MISSING_UNIT,
	PV_M_MISSING_COLUMN,
	PV_M_DUPLICATE_COLUMN,
	PV_M_EMPTY_NAME,
	PV_M_FIELD_COUNT,
	PV_M_BAD_SUMMARY,
	PV_M_UNIT_MISMATCH,
	PV_M_SAMPLES_AND_SUMMARY,
	PV_M_DUPLICATE_SUMMARY,
	PV_M_DUPLICATE_ROW,
	PV_M_BAD_COLUMN_SETTING,
	PV_M_BAD_REPORT,
	PV_M_BAD_SCHEMA_VERSION,
	PV_M_TOO_FEW_POINTS,
	PV_M_BAD_POINT,
	PV_M_DUPLICATE_METRIC,
	PV_M_NO_POOLABLE_POINT,
	PV_M_SHARD_WAIVER_DIFFERS,
	PV_M_SHARD_OVERLAP,
	PV_M_TOO_FEW_RUNS,
	PV_M_TOO_FEW_VALUES,
	PV_M_TOO_MANY_VALUES,
	PV_M_NOT_FINITE,
	PV_M_NOT_POSITIVE,
	PV_M_STATS_FAILED,

	/* fatal (exit 4) */
	PV_M_OUT_OF_MEMORY,

	PV_M_MAX
};

struct pv_msg_info {
	const char *code;       /* stable, lowercase kebab-case */
	enum pv_level level;
	const char *text;       /* what it means, for docs/messages.md */
};

/* The entry of id (PV_M_NONE for an id out of range). */
const struct pv_msg_info *pv_msg_info(enum pv_msg id);
const char *pv_msg_code(enum pv_msg id);
enum pv_level pv_msg_level(enum pv_msg id);
/* The message whose code is code (a report read back names its
 * warnings by code); PV_M_NONE when there is none. */
enum pv_msg pv_msg_by_code(const char *code);
/* The level of an entry of a run's warning list (diag.h) of code:
 * note for a note's code, else warning (an error a policy turned into
 * a warning, such as a result file with no results, is a warning). */
enum pv_level pv_msg_listed_level(const char *code);
/* "note", "warning", "usage", "input", "fatal". */
const char *pv_level_name(enum pv_level level);
/* The exit status of an error of level (0 for a note or a warning). */
int pv_level_status(enum pv_level level);

#endif
