/*
 * archive.h - rebuilding the verdict model from an archived JSON report
 * (for `render` and `merge`).  The JSON carries everything the writers
 * need, so a model read back renders byte for byte as compare wrote it.
 */
#ifndef PV_ARCHIVE_H
#define PV_ARCHIVE_H

#include "config.h"
#include "report.h"
#include "util/err.h"

/* Read path into r (initialised by the caller).  Errors name the file
 * and the JSON position or path of what was wrong (exit status 3). */
int pv_archive_read(struct pv_report *r, const char *path,
		    struct pv_err *err);

/* Append src's metrics, files and context to dst; a metric id present
 * in both is an error, and so are different gate settings. */
int pv_archive_merge(struct pv_report *dst, const struct pv_report *src,
		     const char *src_path, struct pv_err *err);

/*
 * Give cfg the waivers the reports carried (r, after merging), so that
 * deciding again waives what compare waived, and an expired one fails;
 * a glob the config already waives keeps the config's.  r's waivers
 * then are cfg's, for the merged report.  (A waiver from a report has
 * line 0: it has no config line.)
 */
void pv_archive_waivers(struct pv_report *r, struct pv_config *cfg);

#endif
