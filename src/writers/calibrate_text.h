/*
 * calibrate_text.h - calibrate's findings as text for a terminal.
 *
 * Reads a struct pv_calib filled by pv_calibrate() and writes what the
 * rate means against the configured alpha, with its 95% interval, the
 * metrics that alarmed most, and what to do when the rate is high.
 */
#ifndef PV_WRITERS_CALIBRATE_TEXT_H
#define PV_WRITERS_CALIBRATE_TEXT_H

#include <stdio.h>
#include "../calibrate.h"
#include "../util/err.h"

/* tree is the directory's name as given; -1 with err on a write error. */
int pv_write_calibration(const struct pv_calib *c, const char *tree,
			 FILE *fp, struct pv_err *err);

#endif
