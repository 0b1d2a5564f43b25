/* SPDX-License-Identifier: MIT */
/* Welch's t-test, with Student's t distribution computed from the
 * regularized incomplete beta function (a continued fraction evaluated by
 * the modified Lentz method), so no statistics library is needed. */
#include "analysis/welch.h"

#include <errno.h>
#include <float.h>
#include <math.h>

#define TINY 1e-300
#define EPS 1e-15
#define MAX_TERMS 500

/* The continued fraction of I_x(a, b) (converging fast for
 * x < (a + 1) / (a + b + 2)): 1 / (1 + d1 / (1 + d2 / (1 + ...))), with
 * d(2m+1) = -(a+m)(a+b+m)x / ((a+2m)(a+2m+1)) and
 * d(2m) = m(b-m)x / ((a+2m-1)(a+2m)). */
static double beta_cf(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), f;

	if (fabs(d) < TINY)
		d = TINY;
	d = 1 / d;
	f = d;
	for (int m = 1; m <= MAX_TERMS; m++) {
		double num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)), step;

		/* even step */
		d = 1 + num * d;
		d = fabs(d) < TINY ? 1 / TINY : 1 / d;
		c = 1 + num / c;
		if (fabs(c) < TINY)
			c = TINY;
		f *= d * c;
		/* odd step */
		num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		d = fabs(d) < TINY ? 1 / TINY : 1 / d;
		c = 1 + num / c;
		if (fabs(c) < TINY)
			c = TINY;
		step = d * c;
		f *= step;
		if (fabs(step - 1) < EPS)
			break;
	}
	return f;
}

double sm_betainc(double a, double b, double x)
{
	double front;

	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	/* x^a (1-x)^b / (a B(a, b)), in logarithms to stay in range */
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	/* I_x(a, b) = 1 - I_{1-x}(b, a), where that fraction converges fast */
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double sm_t_p2(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return 0;
	return sm_betainc(df / 2, 0.5, df / (df + t * t));
}

double sm_t_cdf(double t, double df)
{
	double tail = sm_t_p2(t, df) / 2;   /* P(T >= |t|) */

	if (isnan(tail))
		return NAN;
	return t >= 0 ? 1 - tail : tail;
}

int sm_welch(double mean_a, double var_a, unsigned na, double mean_b, double var_b,
	     unsigned nb, struct sm_welch *w)
{
	double sa, sb, se2;

	w->t = w->df = w->p = NAN;
	if (na < 2 || nb < 2 || var_a < 0 || var_b < 0)
		return -EDOM;
	sa = var_a / na;
	sb = var_b / nb;
	se2 = sa + sb;
	if (se2 == 0) {
		if (mean_a != mean_b)
			return -EDOM;
		w->t = 0;
		w->df = (double)na + nb - 2;
		w->p = 1;
		return 0;
	}
	w->t = (mean_b - mean_a) / sqrt(se2);
	w->df = se2 * se2 / (sa * sa / (na - 1) + sb * sb / (nb - 1));
	w->p = sm_t_p2(w->t, w->df);
	return 0;
}
