/* SPDX-License-Identifier: MIT */
/* Welch's unequal-variances t-test and the functions under it: the
 * regularized incomplete beta function and Student's t distribution. */
#ifndef SM_ANALYSIS_WELCH_H
#define SM_ANALYSIS_WELCH_H

/* I_x(a, b), the regularized incomplete beta function, for a > 0, b > 0,
 * 0 <= x <= 1 (a continued fraction, relative error near 1e-14); NAN for
 * arguments outside those ranges. */
double sm_betainc(double a, double b, double x);

/* P(T <= t) for Student's t distribution with df > 0 degrees of freedom
 * (df need not be whole); NAN when df <= 0 or t is NAN. */
double sm_t_cdf(double t, double df);

/* The two-sided p-value of t with df degrees of freedom:
 * P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2). */
double sm_t_p2(double t, double df);

/* Welch's test of two samples given by mean, sample variance (n - 1 in
 * the denominator) and size. */
struct sm_welch {
	double t;    /* (mean_b - mean_a) / standard error */
	double df;   /* Welch-Satterthwaite degrees of freedom */
	double p;    /* two-sided p-value */
};

/* Fill w. Returns 0; -EDOM when a sample has fewer than 2 values, or both
 * variances are 0 while the means differ (no spread to judge by: t is
 * infinite); with both variances 0 and equal means, t = 0 and p = 1. */
int sm_welch(double mean_a, double var_a, unsigned na, double mean_b, double var_b,
	     unsigned nb, struct sm_welch *w);

#endif
