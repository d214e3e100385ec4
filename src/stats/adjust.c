/*
 * adjust.c - Holm's and Benjamini-Hochberg's adjustments; see adjust.h.
 */
#include "adjust.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../util/err.h"
#include "../util/banned.h"

/* A double's bits as an unsigned key in the same order (-0 as +0). */
static uint64_t order_key(double v)
{
	uint64_t b;

	if (v == 0)
		v = 0;
	memcpy(&b, &v, sizeof(b));
	return b >> 63 ? ~b : b | (uint64_t)1 << 63;
}

#define RADIX_BITS 16
#define RADIX_SIZE (1u << RADIX_BITS)

/* Order of (full key, index) for the entries of a tie run. */
static int cmp_keyed(const void *pa, const void *pb)
{
	const uint64_t *a = pa, *b = pb;

	return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : (a[1] > b[1]) - (a[1] < b[1]);
}

/* The entries of a tie run are in order already: most often the long
 * runs are of one value (p = 1 for every unchanged metric). */
static int runs_ordered(const uint64_t *e, size_t n, const double *p)
{
	uint32_t prev = (uint32_t)order_key(p[(uint32_t)e[0]]);

	for (size_t i = 1; i < n; i++) {
		uint32_t lo = (uint32_t)order_key(p[(uint32_t)e[i]]);

		if (lo < prev)
			return 0;
		prev = lo;
	}
	return 1;
}

/*
 * Sort e[0..n) (each the top 32 bits of an order key above a 32-bit
 * index) by the full order key of p[index], ties by index: the entries
 * of a run that shares the top bits are put in order by the low bits.
 * Insertion sort for the short runs that are the rule (values that
 * agree in 20 mantissa bits), a general sort for long ones.
 */
static void order_runs(uint64_t *e, size_t n, const double *p)
{
	for (size_t s = 0, t; s < n; s = t) {
		for (t = s + 1; t < n && e[t] >> 32 == e[s] >> 32; t++)
			;
		if (t - s <= 1 || runs_ordered(e + s, t - s, p))
			continue;
		if (t - s <= 32) {
			for (size_t i = s + 1; i < t; i++) {
				uint64_t v = e[i];
				uint32_t lo = (uint32_t)order_key(p[(uint32_t)v]);
				size_t j = i;

				/* stable: equal keys keep index order */
				for (; j > s && (uint32_t)order_key(
					p[(uint32_t)e[j - 1]]) > lo; j--)
					e[j] = e[j - 1];
				e[j] = v;
			}
		} else {
			uint64_t (*kv)[2] = pv_reallocarray(NULL, t - s, sizeof(*kv));

			for (size_t i = s; i < t; i++) {
				kv[i - s][0] = order_key(p[(uint32_t)e[i]]);
				kv[i - s][1] = (uint32_t)e[i];
			}
			qsort(kv, t - s, sizeof(*kv), cmp_keyed);
			for (size_t i = s; i < t; i++)
				e[i] = (e[i] >> 32) << 32 | kv[i - s][1];
			free(kv);
		}
	}
}

/*
 * The indices of the non-NaN entries of p in ascending order of p, ties
 * by index as R's stable order(), into o; returns their count.  An LSD
 * radix sort (stable) on the top 32 bits of the order keys, in two
 * 16-bit passes that carry the index in the low half of the same word,
 * leaves only runs of values that agree in sign, exponent and 20
 * mantissa bits to order by the rest (see order_runs()).  Passes over a
 * digit that every key shares are skipped.
 */
static size_t sorted_family(const double *p, size_t n, size_t *o)
{
	uint32_t (*cnt)[RADIX_SIZE];
	uint64_t *e, *e2, *et;
	size_t i, k = 0;
	unsigned pass;

	/* indices fit the low half of a word: a model of 2^32 metrics
	 * would not fit in memory in the first place */
	if (n > UINT32_MAX)
		abort();
	cnt = pv_calloc(2, sizeof(*cnt));
	ALLOC_ARRAY(e, st_mult(2, n ? n : 1));
	e2 = e + n;
	for (i = 0; i < n; i++) {
		uint64_t v;

		if (isnan(p[i]))
			continue;
		v = (order_key(p[i]) >> 32) << 32 | i;
		cnt[0][(v >> 32) & (RADIX_SIZE - 1)]++;
		cnt[1][v >> 48]++;
		e[k++] = v;
	}
	for (pass = 0; pass < 2; pass++) {
		uint32_t *c = cnt[pass], sum = 0, t;
		unsigned shift = 32 + pass * RADIX_BITS, d;

		if (k == 0 || c[(e[0] >> shift) & (RADIX_SIZE - 1)] == k)
			continue;
		for (d = 0; d < RADIX_SIZE; d++) {
			t = c[d];
			c[d] = sum;
			sum += t;
		}
		for (i = 0; i < k; i++)
			e2[c[(e[i] >> shift) & (RADIX_SIZE - 1)]++] = e[i];
		et = e, e = e2, e2 = et;
	}
	order_runs(e, k, p);
	for (i = 0; i < k; i++)
		o[i] = (uint32_t)e[i];
	free(e < e2 ? e : e2);
	free(cnt);
	return k;
}

/* R: pmin(1, cummax((n - i + 1) * p[o]))[ro].  With q = p, each p[o[i]]
 * is read at step i, before q[o[i]] is written, and no other step
 * touches it. */
void pv_adjust_holm(const double *p, size_t n, double *q)
{
	size_t *o = pv_reallocarray(NULL, n ? n : 1, sizeof(*o));
	size_t k = sorted_family(p, n, o), i;
	double run = -INFINITY, v;

	for (i = 0; i < n; i++)
		if (isnan(p[i]))
			q[i] = NAN;
	for (i = 0; i < k; i++) {
		v = (double)(k - i) * p[o[i]];
		if (v > run)
			run = v;
		q[o[i]] = run < 1 ? run : 1;
	}
	free(o);
}

/* R: i <- lp:1; o <- order(p, decreasing = TRUE);
 *    pmin(1, cummin(n/i * p[o]))[ro] */
void pv_adjust_bh(const double *p, size_t n, double *q)
{
	size_t *o = pv_reallocarray(NULL, n ? n : 1, sizeof(*o));
	size_t k = sorted_family(p, n, o), i;
	double run = INFINITY, v;

	for (i = 0; i < n; i++)
		if (isnan(p[i]))
			q[i] = NAN;
	for (i = k; i-- > 0;) {
		v = (double)k / (double)(i + 1) * p[o[i]];
		if (v < run)
			run = v;
		q[o[i]] = run < 1 ? run : 1;
	}
	free(o);
}
