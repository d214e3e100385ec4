/*
 * adjust.h - multiple-comparison adjustment of a family of p-values.
 */
#ifndef PV_STATS_ADJUST_H
#define PV_STATS_ADJUST_H

#include <stddef.h>

/* Multiple-comparison adjustment as R's p.adjust(p, "holm") and
 * p.adjust(p, "BH"); NAN entries are left out of the family (they do not
 * count in n) and stay NAN.  q may alias p. */
void pv_adjust_holm(const double *p, size_t n, double *q);
void pv_adjust_bh(const double *p, size_t n, double *q);

#endif
