/* msg.c - the table of every message perfverdict prints (see msg.h). */
#include "msg.h"

#include <string.h>
#include "err.h"
#include "banned.h"

#define N PV_LEVEL_NOTE
#define W PV_LEVEL_WARNING
#define U PV_LEVEL_USAGE
#define I PV_LEVEL_INPUT
#define F PV_LEVEL_FATAL

static const struct pv_msg_info table[PV_M_MAX] = {
	[PV_M_NONE] = { "none", I, "no message" },

	/* warnings */
	[PV_M_NOT_A_POINT] = { "not-a-point", W,
		"an archive entry is neither a result tree nor a compare report; left out" },
	[PV_M_OTHER_MACHINE] = { "other-machine", W,
		"a baseline point ran on another kind of machine and was not pooled" },
	[PV_M_ENVIRONMENT_DIFFERS] = { "environment-differs", W,
		"the candidate's environment differs from some pooled baseline points" },
	[PV_M_POOLED_BASELINE] = { "pooled-baseline", N,
		"the points a pooled baseline was drawn from, with their age" },
	[PV_M_FEW_BASELINE_POINTS] = { "few-baseline-points", W,
		"metrics with fewer than 2 comparable baseline points were not tested" },
	[PV_M_SPIKE_CANDIDATE] = { "spike-candidate", W,
		"candidate values as far from a pooled baseline as its spikes were judged against the spikes' rate" },
	[PV_M_TIME_TIE] = { "time-tie", W,
		"points of a history archive have the same recorded time: --order time keeps their name order" },
	[PV_M_SHARED_EFFECT] = { "shared-point-effect", N,
		"the points of a history had an effect shared by their metrics (the machine each ran on); it was taken out before the tests" },
	[PV_M_NO_DIRECTION] = { "no-direction", W,
		"a metric has no configured direction; it was inferred from its name and unit" },
	[PV_M_TOO_NOISY] = { "too-noisy", W,
		"metrics vary more than max_cv allows and were not judged" },
	[PV_M_WAIVER_EXPIRED] = { "waiver-expired", W,
		"a waiver's until date has passed; its metric counts as a regression" },
	[PV_M_IGNORED_FILE] = { "ignored-file", W,
		"a symbolic link or special file in a result tree was not read" },
	[PV_M_PARTLY_EMPTY] = { "partly-empty", W,
		"part of a result file holds no results" },
	[PV_M_SKIPPED_SAMPLE] = { "skipped-sample", W,
		"a value that is not a number was skipped" },
	[PV_M_SKIPPED_NONFINITE] = { "skipped-nonfinite", W,
		"non-finite or null values were skipped" },
	[PV_M_FAILED_BENCHMARK] = { "failed-benchmark", W,
		"a benchmark failed or was skipped and gave no samples" },
	[PV_M_FAILED_RUNS] = { "failed-runs", W,
		"some runs exited non-zero or were killed; their times are still samples" },
	[PV_M_CPU_SCALING] = { "cpu-scaling", W,
		"CPU frequency scaling was enabled while benchmarking" },
	[PV_M_AGGREGATES_ONLY] = { "aggregates-only", W,
		"only aggregates were saved; compared from summaries, or not at all" },
	[PV_M_SUMMARY_ONLY] = { "summary-only", W,
		"the format keeps only summary statistics, not the raw samples" },
	[PV_M_NO_ROUNDS] = { "no-rounds", W,
		"benchmarks without per-round data" },
	[PV_M_UNKNOWN_DIRECTION] = { "unknown-direction", W,
		"a unit whose direction is unknown was not read" },
	[PV_M_IGNORED_LINE] = { "ignored-line", W,
		"a malformed or failed benchmark line was ignored" },
	[PV_M_NO_MEASUREMENTS] = { "no-measurements", W,
		"a benchmark line has an iteration count but no measurements" },
	[PV_M_IGNORED_PREAMBLE] = { "ignored-preamble", W,
		"a preamble line that is not 'key : value' was ignored" },
	[PV_M_NO_TABLE] = { "no-table", W,
		"a group title is not followed by a table" },
	[PV_M_NO_ROWS] = { "no-rows", W,
		"a table has a header but no rows" },
	[PV_M_NO_VALUE_COLUMNS] = { "no-value-columns", W,
		"every column is a key column: the table has no values" },
	[PV_M_NO_BENCHMARK_JSON] = { "no-benchmark-json", W,
		"a criterion result has no benchmark.json; named after its directory" },
	[PV_M_NO_SAVED_BASELINE] = { "no-saved-baseline", W,
		"the named criterion baseline was not saved for a benchmark" },
	[PV_M_NO_NAME] = { "no-name", W,
		"a benchmark has no name in its metadata; a name was made up" },
	[PV_M_NUMBERED_TESTS] = { "numbered-tests", W,
		"every test of a tree has one run and their names differ only by a number: runs laid out as tests, which repeat_pattern would join" },
	[PV_M_UNCODED] = { "uncoded", W,
		"a warning read from a schema_version 1 report, which had no codes" },

	/* usage errors */
	[PV_M_USAGE] = { "usage", U,
		"the command line is incomplete" },
	[PV_M_UNKNOWN_COMMAND] = { "unknown-command", U,
		"no such command" },
	[PV_M_UNKNOWN_OPTION] = { "unknown-option", U,
		"no such option" },
	[PV_M_AMBIGUOUS_OPTION] = { "ambiguous-option", U,
		"an abbreviated option matches several options" },
	[PV_M_OPTION_NEEDS_VALUE] = { "option-needs-value", U,
		"an option is given without its value" },
	[PV_M_OPTION_TAKES_NO_VALUE] = { "option-takes-no-value", U,
		"an option that takes no value is given one" },
	[PV_M_BAD_OPTION_VALUE] = { "bad-option-value", U,
		"an option's value is not what it expects" },
	[PV_M_SAME_OUTPUT] = { "same-output", U,
		"one file, or standard output, is given for two reports (the point of --save-point is one)" },
	[PV_M_CANNOT_WRITE] = { "cannot-write", U,
		"a report or standard output cannot be written" },
	[PV_M_UNKNOWN_FORMAT] = { "unknown-format", U,
		"no reader of that name (see 'perfverdict formats')" },
	[PV_M_NO_SUCH_SUITE] = { "no-such-suite", U,
		"the configuration has no suite of that name" },
	[PV_M_AMBIGUOUS_SUITE] = { "ambiguous-suite", U,
		"the configuration has several suites and none was chosen" },
	[PV_M_BAD_PATTERN] = { "bad-pattern", U,
		"a regular expression does not compile or is refused" },
	[PV_M_SHARD_GATE_DIFFERS] = { "shard-gate-differs", U,
		"reports to merge were made with different gate settings" },
	[PV_M_BAD_CRITERION_BASELINE] = { "bad-criterion-baseline", U,
		"a criterion baseline name is not a directory name" },
	[PV_M_BAD_ARGUMENT] = { "bad-argument", U,
		"a statistical test was asked for an impossible setting" },
	[PV_M_CONFIG_UNREADABLE] = { "config-unreadable", U,
		"the configuration file cannot be read" },
	[PV_M_CONFIG_TOO_LARGE] = { "config-too-large", U,
		"the configuration file is too large" },
	[PV_M_CONFIG_BINARY] = { "config-binary", U,
		"the configuration file is not a text file" },
	[PV_M_CONFIG_SYNTAX] = { "config-syntax", U,
		"a configuration line cannot be parsed" },
	[PV_M_BAD_VALUE] = { "bad-value", U,
		"a configuration key has a value it does not accept" },
	[PV_M_BAD_SECTION] = { "bad-section", U,
		"a configuration section name is empty or malformed" },
	[PV_M_DUPLICATE_SECTION] = { "duplicate-section", U,
		"a configuration section appears twice" },
	[PV_M_UNKNOWN_KEY] = { "unknown-key", U,
		"a configuration key is not known in its section" },
	[PV_M_KEY_OUTSIDE_SECTION] = { "key-outside-section", U,
		"a configuration key comes before any [section]" },
	[PV_M_DUPLICATE_KEY] = { "duplicate-key", U,
		"a configuration key appears twice in one section" },
	[PV_M_CONFLICTING_VALUE] = { "conflicting-value", U,
		"a repeated section gives a key another value" },
	[PV_M_NO_PATTERN] = { "no-pattern", U,
		"a suite has no result_file_pattern" },
	[PV_M_KEY_COLUMN] = { "key-column", U,
		"avg_update uses a key column" },
	[PV_M_INCOMPLETE_WAIVER] = { "incomplete-waiver", U,
		"a waiver has no until date or no reason" },

	/* input errors */
	[PV_M_CANNOT_READ] = { "cannot-read", I,
		"a file or directory cannot be read" },
	[PV_M_TOO_LARGE] = { "too-large", I,
		"a file is larger than limits.max_file_size or its parser allows" },
	[PV_M_TOO_DEEP] = { "too-deep", I,
		"a result tree is deeper than limits.max_depth" },
	[PV_M_NOT_REGULAR_FILE] = { "not-regular-file", I,
		"a file matching result_file_pattern is not a regular file" },
	[PV_M_NOT_A_TREE] = { "not-a-tree", I,
		"an operand is not a directory or a regular file" },
	[PV_M_BAD_GZIP] = { "bad-gzip", I,
		"a compressed file cannot be decompressed" },
	[PV_M_BINARY_FILE] = { "binary-file", I,
		"a text format's file holds a NUL byte" },
	[PV_M_LINE_TOO_LONG] = { "line-too-long", I,
		"a line is longer than limits.max_line" },
	[PV_M_NO_RESULT_FILES] = { "no-result-files", I,
		"a result tree holds no result files" },
	[PV_M_NO_RESULTS] = { "no-results", I,
		"a result file holds no results (a warning with empty_files = warn)" },
	[PV_M_EMPTY_FILE] = { "empty-file", I,
		"a result file is empty (a warning with empty_files = warn)" },
	[PV_M_UNKNOWN_FILE_FORMAT] = { "unknown-file-format", I,
		"no reader knows a file's format (a warning with empty_files = warn)" },
	[PV_M_UNREADABLE_FILE] = { "unreadable-file", I,
		"a file cannot be read as any format, though its peer could (a warning with empty_files = warn)" },
	[PV_M_CR_ONLY] = { "cr-only", I,
		"a text file has CR-only line endings (a warning with empty_files = warn)" },
	[PV_M_TOO_FEW_POINTS] = { "too-few-points", I,
		"a history archive has fewer than 3 points" },
	[PV_M_BAD_POINT] = { "bad-point", I,
		"a point of a history archive cannot be used (no samples, or no recorded time)" },
	[PV_M_DUPLICATE_METRIC] = { "duplicate-metric", I,
		"a metric appears twice in one point of a history archive" },
	[PV_M_NO_POOLABLE_POINT] = { "no-poolable-point", I,
		"no baseline point ran on the candidate's kind of machine: nothing to pool" },
	[PV_M_NO_SAMPLES] = { "no-samples", I,
		"no samples were found at all" },
	[PV_M_NOTHING_COMPARED] = { "nothing-compared", I,
		"no metric could be compared" },
	[PV_M_TOO_MANY_METRICS] = { "too-many-metrics", I,
		"more metrics than limits.max_metrics" },
	[PV_M_MALFORMED_JSON] = { "malformed-json", I,
		"a JSON file does not parse" },
	[PV_M_MALFORMED_XML] = { "malformed-xml", I,
		"an XML file does not parse" },
	[PV_M_MALFORMED_CSV] = { "malformed-csv", I,
		"a CSV field is badly quoted" },
	[PV_M_BAD_STRUCTURE] = { "bad-structure", I,
		"a result file parses but does not hold what its format has" },
	[PV_M_BAD_NUMBER] = { "bad-number", I,
		"a value cannot be parsed as a number" },
	[PV_M_MISSING_UNIT] = { "missing-unit", I,
		"a value has no unit" },
	[PV_M_MISSING_COLUMN] = { "missing-column", I,
		"a required column is missing from a header" },
	[PV_M_DUPLICATE_COLUMN] = { "duplicate-column", I,
		"a column title appears twice in a header" },
	[PV_M_EMPTY_NAME] = { "empty-name", I,
		"a benchmark name or column title is empty" },
	[PV_M_FIELD_COUNT] = { "field-count", I,
		"a record has another number of fields than its header" },
	[PV_M_BAD_SUMMARY] = { "bad-summary", I,
		"a summary's sd or n is impossible" },
	[PV_M_UNIT_MISMATCH] = { "unit-mismatch", I,
		"a metric comes in units that cannot be converted" },
	[PV_M_SAMPLES_AND_SUMMARY] = { "samples-and-summary", I,
		"a metric has both samples and a summary on one side" },
	[PV_M_DUPLICATE_SUMMARY] = { "duplicate-summary", I,
		"a metric is summarised twice in one file" },
	[PV_M_DUPLICATE_ROW] = { "duplicate-row", I,
		"a row key appears twice in one group" },
	[PV_M_BAD_COLUMN_SETTING] = { "bad-column-setting", I,
		"ignore_col or avg_update does not fit the table's header" },
	[PV_M_BAD_REPORT] = { "bad-report", I,
		"a file is not a perfverdict JSON report" },
	[PV_M_BAD_SCHEMA_VERSION] = { "bad-schema-version", I,
		"a report has a schema_version this version cannot read" },
	[PV_M_SHARD_WAIVER_DIFFERS] = { "shard-waiver-differs", I,
		"reports to merge carry different waivers" },
	[PV_M_SHARD_OVERLAP] = { "shard-overlap", I,
		"reports to merge share a metric" },
	[PV_M_TOO_FEW_RUNS] = { "too-few-runs", I,
		"calibrate has too few runs to split" },
	[PV_M_TOO_FEW_VALUES] = { "too-few-values", I,
		"a statistical test has too few values" },
	[PV_M_TOO_MANY_VALUES] = { "too-many-values", I,
		"a statistical test has too many values" },
	[PV_M_NOT_FINITE] = { "not-finite", I,
		"a statistical test got a value that is not a finite number" },
	[PV_M_NOT_POSITIVE] = { "not-positive", I,
		"a test on logarithms got a value that is not positive" },
	[PV_M_STATS_FAILED] = { "stats-failed", I,
		"a numerical routine failed" },

	/* fatal */
	[PV_M_OUT_OF_MEMORY] = { "out-of-memory", F,
		"an allocation failed" },
};

const struct pv_msg_info *pv_msg_info(enum pv_msg id)
{
	if ((unsigned)id >= PV_M_MAX || !table[id].code)
		id = PV_M_NONE;
	return &table[id];
}

const char *pv_msg_code(enum pv_msg id)
{
	return pv_msg_info(id)->code;
}

enum pv_msg pv_msg_by_code(const char *code)
{
	for (int id = PV_M_NONE + 1; id < PV_M_MAX; id++)
		if (table[id].code && !strcmp(table[id].code, code))
			return (enum pv_msg)id;
	return PV_M_NONE;
}

enum pv_level pv_msg_level(enum pv_msg id)
{
	return pv_msg_info(id)->level;
}

enum pv_level pv_msg_listed_level(const char *code)
{
	enum pv_msg id = code ? pv_msg_by_code(code) : PV_M_NONE;

	return id != PV_M_NONE && pv_msg_level(id) == PV_LEVEL_NOTE ?
	       PV_LEVEL_NOTE : PV_LEVEL_WARNING;
}

const char *pv_level_name(enum pv_level level)
{
	switch (level) {
	case PV_LEVEL_NOTE:
		return "note";
	case PV_LEVEL_WARNING:
		return "warning";
	case PV_LEVEL_USAGE:
		return "usage";
	case PV_LEVEL_INPUT:
		return "input";
	case PV_LEVEL_FATAL:
		return "fatal";
	}
	return "input";
}

int pv_level_status(enum pv_level level)
{
	switch (level) {
	case PV_LEVEL_NOTE:
	case PV_LEVEL_WARNING:
		return PV_OK;
	case PV_LEVEL_USAGE:
		return PV_EUSAGE;
	case PV_LEVEL_INPUT:
		return PV_EINPUT;
	case PV_LEVEL_FATAL:
		return PV_ENOMEM;
	}
	return PV_EINPUT;
}
