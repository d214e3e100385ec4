/*
 * mannwhitney.c - the Mann-Whitney U test with the Hodges-Lehmann shift
 * and its interval; see mannwhitney.h.
 */
#include "mannwhitney.h"
#include "internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/err.h"

#include <gsl/gsl_cdf.h>
#include "../util/banned.h"

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/*
 * Counts of U = 0..m*n over the binom(m+n, m) equally likely
 * arrangements: the coefficients of the Gaussian binomial
 * [m+n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i), built one
 * factor at a time (multiply by 1 - q^(n+i), then divide by 1 - q^i,
 * which is a running sum with stride i).  m is the smaller size, so this
 * costs O(m * m * n).  The counts are integers, exact while they stay
 * below 2^53 (binom(m+n, m) < 9e15: m = 8 up to n = 370); beyond that
 * they are rounded, and the lower-half cdf stays within 1e-14 relative
 * of R's pwilcox (measured up to 49 x 49 and 8 x 1000).
 * c must hold m*n + m + 1 values; returns the total count.
 */
static double mwu_counts(size_t m, size_t n, double *c)
{
	size_t i, k, deg = 0, top;
	double total = 0;

	if (m > n) {
		size_t t = m;
		m = n;
		n = t;
	}
	memset(c, 0, (m * n + m + 1) * sizeof(*c));
	c[0] = 1;
	for (i = 1; i <= m; i++) {
		top = deg + n + i;
		for (k = top; k >= n + i; k--)
			c[k] -= c[k - (n + i)];
		for (k = i; k <= top; k++)
			c[k] += c[k - i];
		deg += n;
		/* exactly 0 in exact arithmetic; drop rounding residue */
		for (k = deg + 1; k <= top; k++)
			c[k] = 0;
	}
	for (k = 0; k <= m * n; k++)
		total += c[k];
	return total;
}

/* P(U <= K) from the counts; only the lower half of the counts is ever
 * summed (the distribution is symmetric), which keeps small tails
 * accurate. */
static double mwu_cdf(const double *c, double total, size_t mn, size_t K)
{
	double s = 0;
	size_t k;

	if (K >= mn)
		return 1.0;
	if (K <= mn / 2) {
		for (k = 0; k <= K; k++)
			s += c[k];
		return s / total;
	}
	/* P(U > K) = P(U < mn - K) by symmetry */
	for (k = 0; k < mn - K; k++)
		s += c[k];
	return 1.0 - s / total;
}

struct ranked {
	double v;
	int side;       /* 0: a, 1: b */
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	return (a->v > b->v) - (a->v < b->v);
}

/* Work space of pair_select, sized for m rows. */
struct hl_scratch {
	size_t *lo, *hi, *plt, *ple;
	double *pairs;          /* 2 per row: a middle candidate, weight */
	double *buf;
	size_t nbuf;
};

#define DIFF(r, j) (bs[(j)] - as[m - 1 - (r)])

static int cmp_mid(const void *pa, const void *pb)
{
	const double *a = pa, *b = pb;

	return (a[0] > b[0]) - (a[0] < b[0]);
}

/*
 * The k-th smallest (0-based) of the m*n differences b[j] - a[i], with
 * as and bs sorted ascending, without forming them.  Row r holds
 * b[.] - as[m-1-r], so the matrix is sorted along rows and columns
 * (floating-point subtraction is monotone, so this holds for the
 * computed differences too).  Candidates of row r are columns
 * [lo[r], hi[r]); each round takes the weighted median of the rows'
 * middle candidates as pivot, counts the elements below and at it with
 * one staircase walk, and drops at least a quarter of the candidates.
 * Once few remain they are sorted directly.
 */
static double pair_select(const double *as, size_t m, const double *bs,
			  size_t n, size_t k, struct hl_scratch *w)
{
	size_t r, j, cand, below, nmid, cnt_lt, cnt_le;
	double pivot, half, acc, *pairs;

	for (r = 0; r < m; r++) {
		w->lo[r] = 0;
		w->hi[r] = n;
	}
	pairs = w->pairs;
	for (;;) {
		cand = below = 0;
		for (r = 0; r < m; r++) {
			cand += w->hi[r] - w->lo[r];
			below += w->lo[r];
		}
		if (cand <= w->nbuf) {
			size_t t = 0;

			for (r = 0; r < m; r++)
				for (j = w->lo[r]; j < w->hi[r]; j++)
					w->buf[t++] = DIFF(r, j);
			qsort(w->buf, t, sizeof(*w->buf), cmp_double);
			return w->buf[k - below];
		}
		nmid = 0;
		for (r = 0; r < m; r++) {
			if (w->hi[r] == w->lo[r])
				continue;
			pairs[2 * nmid] = DIFF(r, (w->lo[r] + w->hi[r]) / 2);
			pairs[2 * nmid + 1] = (double)(w->hi[r] - w->lo[r]);
			nmid++;
		}
		qsort(pairs, nmid, 2 * sizeof(*pairs), cmp_mid);
		half = (double)cand / 2;
		acc = 0;
		pivot = pairs[0];
		for (r = 0; r < nmid; r++) {
			acc += pairs[2 * r + 1];
			if (acc >= half) {
				pivot = pairs[2 * r];
				break;
			}
		}
		/* staircase: the count below the pivot shrinks down the rows */
		cnt_lt = cnt_le = 0;
		j = n;
		for (r = 0; r < m; r++) {
			while (j > 0 && DIFF(r, j - 1) >= pivot)
				j--;
			w->plt[r] = j;
			cnt_lt += j;
		}
		j = n;
		for (r = 0; r < m; r++) {
			while (j > 0 && DIFF(r, j - 1) > pivot)
				j--;
			w->ple[r] = j;
			cnt_le += j;
		}
		if (k < cnt_lt) {
			for (r = 0; r < m; r++)
				if (w->hi[r] > w->plt[r])
					w->hi[r] = w->plt[r];
		} else if (k < cnt_le) {
			return pivot;
		} else {
			for (r = 0; r < m; r++)
				if (w->lo[r] < w->ple[r])
					w->lo[r] = w->ple[r];
		}
		for (r = 0; r < m; r++)
			if (w->lo[r] > w->hi[r])
				w->lo[r] = w->hi[r];
	}
}

#undef DIFF

/* R1, the sum of a's average ranks in the pooled sample, and the tie
 * term sum (t^3 - t) over groups of t equal values; *ties set when
 * there is a group. */
static double rank_sum(const double *a, size_t na, const double *b,
		       size_t nb, double *tie_term, int *ties)
{
	size_t n = na + nb, i, j, k, t;
	struct ranked *rk = pv_reallocarray(NULL, n, sizeof(*rk));
	double r1 = 0;

	*tie_term = 0;
	*ties = 0;
	for (i = 0; i < na; i++) {
		rk[i].v = a[i];
		rk[i].side = 0;
	}
	for (i = 0; i < nb; i++) {
		rk[na + i].v = b[i];
		rk[na + i].side = 1;
	}
	qsort(rk, n, sizeof(*rk), cmp_ranked);
	for (i = 0; i < n; i = j) {
		double rank;

		for (j = i + 1; j < n && rk[j].v == rk[i].v; j++)
			;
		t = j - i;
		/* ranks i+1..j share their average */
		rank = ((double)(i + 1) + (double)j) / 2;
		for (k = i; k < j; k++)
			if (rk[k].side == 0)
				r1 += rank;
		if (t > 1) {
			*ties = 1;
			*tie_term += (double)t * t * t - (double)t;
		}
	}
	free(rk);
	return r1;
}

/* The sd of U under the null, tie-corrected. */
static double mwu_sigma(size_t na, size_t nb, double tie_term)
{
	double n1 = (double)na, n2 = (double)nb, nn = (double)(na + nb);

	return sqrt(n1 * n2 / 12 * ((nn + 1) - tie_term / (nn * (nn - 1))));
}

/*
 * The p-value of U1 = u1 for alt: the exact distribution from the
 * counts when o->exact, else the normal approximation with continuity
 * correction (sigma: mwu_sigma()).
 */
static double mwu_p(double u1, size_t na, size_t nb, enum pv_alt alt,
		    int exact, const double *counts, double total,
		    double sigma)
{
	size_t mn = na * nb;
	double u2 = (double)mn - u1, u, f, p;

	switch (alt) {
	case PV_ALT_GREATER:    /* scipy 'less': b stochastically larger */
		u = u2;
		f = 1;
		break;
	case PV_ALT_LESS:       /* scipy 'greater' */
		u = u1;
		f = 1;
		break;
	case PV_ALT_TWO:
	default:
		u = u1 > u2 ? u1 : u2;
		f = 2;
		break;
	}
	if (exact) {
		/* P(U' >= u) = P(U' <= mn - u) by symmetry */
		p = mwu_cdf(counts, total, mn, mn - (size_t)u);
	} else {
		double num = u - (double)na * (double)nb / 2 - 0.5;
		double z;

		if (sigma > 0)
			z = num / sigma;
		else
			z = num < 0 ? -INFINITY : num > 0 ? INFINITY : NAN;
		p = gsl_cdf_ugaussian_Q(z);
	}
	p *= f;
	return p > 1 ? 1 : p < 0 ? 0 : p;
}

/*
 * The rank qu (1-based) of the Moses interval's lower end among the mn
 * differences: the smallest q with P(U <= q) >= (1 - conf)/2, as R's
 * qwilcox (with its fuzz) from the counts when there are any, else its
 * normal approximation with continuity correction,
 * P(U <= q) ~ Phi((q + 0.5 - mn/2) / sigma); within [1, (mn+1)/2].
 */
static size_t moses_rank(size_t mn, const double *counts, double total,
			 double sigma, double conf)
{
	double alpha = 1 - conf;
	size_t qu;

	if (counts) {
		double x = alpha / 2 - 10 * DBL_EPSILON, cum = 0;

		for (qu = 0; qu < mn; qu++) {
			cum += counts[qu] / total;
			if (cum >= x)
				break;
		}
	} else {
		double q = ceil((double)mn / 2 - 0.5 -
				gsl_cdf_ugaussian_Pinv(1 - alpha / 2) * sigma);

		qu = q < 0 ? 0 : (size_t)q;
	}
	if (qu == 0)
		qu = 1;
	if (qu > (mn + 1) / 2)
		qu = (mn + 1) / 2;
	return qu;
}

/* Hodges-Lehmann: the median of the differences into o->shift, and
 * order statistics qu and mn + 1 - qu (1-based) into the interval. */
static void hodges_lehmann(const double *a, size_t na, const double *b,
			   size_t nb, size_t qu, struct pv_test_out *o)
{
	size_t mn = st_mult(na, nb);
	double *as = pv_reallocarray(NULL, st_add(na, nb), sizeof(*as));
	double *bs = as + na;
	struct hl_scratch w;

	memcpy(as, a, na * sizeof(*as));
	memcpy(bs, b, nb * sizeof(*bs));
	pvs_sort(as, na);
	pvs_sort(bs, nb);
	ALLOC_ARRAY(w.lo, st_mult(4, na));
	w.hi = w.lo + na;
	w.plt = w.hi + na;
	w.ple = w.plt + na;
	ALLOC_ARRAY(w.pairs, st_mult(2, na));
	w.nbuf = st_mult(4, na + nb) < mn ? 4 * (na + nb) : mn;
	ALLOC_ARRAY(w.buf, w.nbuf);
	if (mn % 2)
		o->shift = pair_select(as, na, bs, nb, mn / 2, &w);
	else
		o->shift = (pair_select(as, na, bs, nb, mn / 2 - 1, &w) +
			    pair_select(as, na, bs, nb, mn / 2, &w)) / 2;
	o->ci_low = pair_select(as, na, bs, nb, qu - 1, &w);
	o->ci_high = pair_select(as, na, bs, nb, mn - qu, &w);
	free(w.buf);
	free(w.pairs);
	free(w.lo);
	free(as);
}

int pv_mannwhitney(const double *a, size_t na, const double *b, size_t nb,
		   enum pv_alt alt, double conf, struct pv_test_out *o,
		   struct pv_err *err)
{
	size_t mn = na * nb;
	double tie_term, u1, sigma, *counts = NULL, total = 0;
	int ties;

	if (na == 0 || nb == 0)
		return pv_error(err, PV_M_TOO_FEW_VALUES,
			"Mann-Whitney test needs at least 1 value per side, "
			"got %zu and %zu", na, nb);
	if (mn / nb != na)
		return pv_error(err, PV_M_TOO_MANY_VALUES,
			"Mann-Whitney test: %zu x %zu samples is too many",
			na, nb);
	if (!pvs_all_finite(a, na) || !pvs_all_finite(b, nb))
		return pv_error(err, PV_M_NOT_FINITE,
			"Mann-Whitney test got a value that is not a finite "
			"number");
	if (pvs_check_level(conf, alt, err))
		return -1;

	u1 = rank_sum(a, na, b, nb, &tie_term, &ties) -
	     (double)na * ((double)na + 1) / 2;
	sigma = mwu_sigma(na, nb, tie_term);
	o->statistic = u1;
	o->df = NAN;
	o->se = NAN;
	o->exact = !(na > 8 && nb > 8) && !ties;
	/* The interval uses the exact distribution whenever the test does,
	 * and, as R's wilcox.test, for any tie-free pair below 50 each. */
	if (!ties && (o->exact || (na < 50 && nb < 50))) {
		ALLOC_ARRAY(counts, st_add(mn, (na < nb ? na : nb) + 1));
		total = mwu_counts(na, nb, counts);
	}
	o->p = mwu_p(u1, na, nb, alt, o->exact, counts, total, sigma);
	hodges_lehmann(a, na, b, nb,
		       moses_rank(mn, counts, total, sigma, conf), o);
	free(counts);
	return 0;
}
