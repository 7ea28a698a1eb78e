#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "fit.h"
#include "stats.h"

double fit_quantile_sorted(const double *v, size_t n, double q)
{
	double pos, frac;
	size_t i;

	if (n == 0)
		return NAN;
	pos = q * (double)(n - 1);
	i = (size_t)pos;
	if (i + 1 >= n)
		return v[n - 1];
	frac = pos - (double)i;
	return v[i] + frac * (v[i + 1] - v[i]);
}

void fit_line_add(struct fit_line *f, double x, double y)
{
	f->n += 1;
	f->sx += x;
	f->sy += y;
	f->sxx += x * x;
	f->sxy += x * y;
	f->syy += y * y;
}

int fit_line_solve(const struct fit_line *f, double *a, double *b, double *r2)
{
	double vxx, vxy, vyy, res;

	*a = *b = *r2 = NAN;
	if (f->n < 2)
		return -1;
	vxx = f->sxx - f->sx * f->sx / f->n;
	vxy = f->sxy - f->sx * f->sy / f->n;
	vyy = f->syy - f->sy * f->sy / f->n;
	/* Relative test: the sums are large and the difference of two large numbers is never 0 exactly. */
	if (vxx <= 1e-12 * f->sxx)
		return -1;
	*a = vxy / vxx;
	*b = (f->sy - *a * f->sx) / f->n;
	res = vyy - *a * vxy;
	/* y that never varies while x does is fitted by a slope of 0: x explains none of it (an event that is
	   0 wherever q is not read as perfectly linear in q) */
	if (vyy <= 1e-12 * f->syy)
		*r2 = 0.0;
	else
		*r2 = 1.0 - fmax(res, 0.0) / vyy;
	return 0;
}

/* The scales physics gives an event against the kernels' volumes: powers of two (32-byte sectors: 2 per
   line; 16-byte transfers: 4), one of N memory channels or boxes (1/3, 1/6, 1/12: 3-, 6- and
   12-channel sockets such as Skylake-SP's 6 and Zen 4's 12; 1/4, 1/8: 4- and 8-channel Haswell-EP,
   Broadwell-EP, Zen 2), flits per 64-byte line (8 on QPI, Molka et al. Table 3; 9 on UPI, Linux
   tools/perf/pmu-events/arch/x86/skylakex/skx-metrics.json "64 / 9"), and the triad's 3 arrays. */
const double fit_simple_values[] = {1.0 / 16, 1.0 / 12, 1.0 / 8, 1.0 / 6, 1.0 / 4, 1.0 / 3, 1.0 / 2, 1,
				    2,        3,        4,       6,       8,       9,       12,      16};
const unsigned fit_nsimple = sizeof fit_simple_values / sizeof fit_simple_values[0];

double fit_nearest_simple_or(double x, double also)
{
	double best = 0, best_err = INFINITY;

	if (!(x > 0))
		return 0;
	for (unsigned i = 0; i <= fit_nsimple; i++) {
		double s = i < fit_nsimple ? fit_simple_values[i] : also, err;
		if (!(s > 0))
			continue;
		err = fabs(x / s - 1);
		/* <=: the extra value (the config's hypothesis) wins a tie */
		if (err < best_err || (i == fit_nsimple && err <= best_err)) {
			best_err = err;
			best = s;
		}
	}
	return best;
}

double fit_nearest_simple(double x)
{
	return fit_nearest_simple_or(x, 0);
}

void fit_format_scale(double s, char *buf, size_t len)
{
	if (s > 0 && s < 1 && fabs(1 / s - round(1 / s)) < 1e-9)
		snprintf(buf, len, "1/%.0f", 1 / s);
	else if (fabs(s - round(s)) < 1e-9)
		snprintf(buf, len, "%.0f", s);
	else
		snprintf(buf, len, "%.4g", s);
}

/* Solves M z = r for the rows/columns in set (n of them) by Gaussian elimination with partial
   pivoting; M is the m x m matrix G. Returns -1 when singular. */
static int solve_subset(const double *G, const double *h, unsigned m, const unsigned *set, unsigned n,
			double *z)
{
	double M[FIT_NNLS_MAX][FIT_NNLS_MAX + 1];

	for (unsigned i = 0; i < n; i++) {
		for (unsigned j = 0; j < n; j++)
			M[i][j] = G[set[i] * m + set[j]];
		M[i][n] = h[set[i]];
	}
	for (unsigned c = 0; c < n; c++) {
		unsigned p = c;
		for (unsigned r = c + 1; r < n; r++)
			if (fabs(M[r][c]) > fabs(M[p][c]))
				p = r;
		if (fabs(M[p][c]) < 1e-12)
			return -1;
		if (p != c)
			for (unsigned j = 0; j <= n; j++) {
				double t = M[c][j];
				M[c][j] = M[p][j];
				M[p][j] = t;
			}
		for (unsigned r = c + 1; r < n; r++) {
			double f = M[r][c] / M[c][c];
			for (unsigned j = c; j <= n; j++)
				M[r][j] -= f * M[c][j];
		}
	}
	for (unsigned i = n; i-- > 0;) {
		double s = M[i][n];
		for (unsigned j = i + 1; j < n; j++)
			s -= M[i][j] * z[j];
		z[i] = s / M[i][i];
	}
	return 0;
}

/* Lawson-Hanson on columns scaled to unit norm, so that the tolerances mean the same for a
   quantity in the billions as for one in the thousands. */
int fit_nnls(const double *G0, const double *h0, unsigned m, double *x)
{
	double G[FIT_NNLS_MAX * FIT_NNLS_MAX], h[FIT_NNLS_MAX], d[FIT_NNLS_MAX], z[FIT_NNLS_MAX];
	unsigned set[FIT_NNLS_MAX], nset = 0;
	int in[FIT_NNLS_MAX] = {0};
	const double tol = 1e-10;

	if (m == 0 || m > FIT_NNLS_MAX)
		return -1;
	for (unsigned i = 0; i < m; i++)
		d[i] = G0[i * m + i] > 0 ? sqrt(G0[i * m + i]) : 1;
	for (unsigned i = 0; i < m; i++) {
		h[i] = h0[i] / d[i];
		x[i] = 0;
		for (unsigned j = 0; j < m; j++)
			G[i * m + j] = G0[i * m + j] / (d[i] * d[j]);
	}
	for (unsigned iter = 0; iter < 3 * m + 10; iter++) {
		double wmax = tol;
		int t = -1;

		for (unsigned j = 0; j < m; j++) {
			double w = h[j];
			if (in[j] || G[j * m + j] <= 0)
				continue;
			for (unsigned k = 0; k < m; k++)
				w -= G[j * m + k] * x[k];
			if (w > wmax) {
				wmax = w;
				t = (int)j;
			}
		}
		if (t < 0)
			break;
		in[t] = 1;
		set[nset++] = (unsigned)t;
		for (;;) {
			double alpha = INFINITY;
			unsigned k = 0;

			if (solve_subset(G, h, m, set, nset, z))
				return -1;
			for (unsigned i = 0; i < nset; i++)
				if (z[i] <= tol)
					alpha = fmin(alpha, x[set[i]] / (x[set[i]] - z[i]));
			if (isinf(alpha)) {
				for (unsigned i = 0; i < nset; i++)
					x[set[i]] = z[i];
				break;
			}
			for (unsigned i = 0; i < nset; i++)
				x[set[i]] += alpha * (z[i] - x[set[i]]);
			for (unsigned i = 0; i < nset; i++) {
				if (x[set[i]] > tol) {
					set[k++] = set[i];
					continue;
				}
				x[set[i]] = 0;
				in[set[i]] = 0;
			}
			nset = k;
			if (nset == 0)
				break;
		}
	}
	for (unsigned i = 0; i < m; i++)
		x[i] /= d[i];
	return 0;
}
