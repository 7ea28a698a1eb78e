/* test_fit_basic.c — the statistics under the verdicts, on inputs with known answers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fit.h"
#include "stats.h"

static void test_quantile_interpolates_between_sorted_values(void **state)
{
	double v[] = {9, 1, 5, 3, 7};

	(void)state;
	stats_sort(v, 5);
	assert_true(fabs(fit_quantile_sorted(v, 5, 0.5) - 5) < 1e-12);
	assert_true(fabs(fit_quantile_sorted(v, 5, 0.1) - 1.8) < 1e-12);
	assert_true(fabs(fit_quantile_sorted(v, 5, 1.0) - 9) < 1e-12);
	assert_true(isnan(fit_quantile_sorted(v, 0, 0.5)));
}

static void test_line_fit_recovers_slope_intercept_and_r2(void **state)
{
	struct fit_line f = {0};
	double a, b, r2;

	(void)state;
	for (int i = 1; i <= 10; i++)
		fit_line_add(&f, i * 1e6, 0.5 * i * 1e6 + 300);
	assert_int_equal(fit_line_solve(&f, &a, &b, &r2), 0);
	assert_true(fabs(a - 0.5) < 1e-9);
	assert_true(fabs(b - 300) < 1e-3);
	assert_true(r2 > 0.999999);
}

static void test_line_fit_r2_drops_with_scatter(void **state)
{
	struct fit_line f = {0};
	double a, b, r2;
	const double y[] = {1, 9, 2, 8, 3, 7};

	(void)state;
	for (int i = 0; i < 6; i++)
		fit_line_add(&f, i, y[i]);
	assert_int_equal(fit_line_solve(&f, &a, &b, &r2), 0);
	assert_true(r2 < 0.2);
}

/* A count that never varies while the quantity does is not linear in it: an event that is 0 on every touch
   point read "best linear fit: pages, R^2 1.000" in events.md. */
static void test_line_fit_of_constant_y_explains_nothing(void **state)
{
	struct fit_line f = {0};
	double a, b, r2;

	(void)state;
	fit_line_add(&f, 1, 0);
	fit_line_add(&f, 2, 0);
	fit_line_add(&f, 4, 0);
	assert_int_equal(fit_line_solve(&f, &a, &b, &r2), 0);
	assert_true(a == 0);
	assert_true(r2 == 0);
}

static void test_line_fit_refuses_constant_x(void **state)
{
	struct fit_line f = {0};
	double a, b, r2;

	(void)state;
	fit_line_add(&f, 5, 1);
	fit_line_add(&f, 5, 2);
	assert_int_equal(fit_line_solve(&f, &a, &b, &r2), -1);
	assert_true(isnan(r2));
}

static void test_nearest_simple_value_is_relative(void **state)
{
	(void)state;
	assert_true(fit_nearest_simple(0.52) == 0.5);
	assert_true(fit_nearest_simple(1.3) == 1); /* 30 % from 1, 35 % from 2 */
	assert_true(fit_nearest_simple(0.7) == 1); /* 30 % from 1, 40 % from 1/2 */
	assert_true(fit_nearest_simple(7.7) == 8);
	assert_true(fit_nearest_simple(0.34) == 1.0 / 3);
	assert_true(fit_nearest_simple(40) == 16);
	assert_true(fit_nearest_simple(-1) == 0);
}

static void test_scale_is_written_as_a_fraction(void **state)
{
	char b[16];

	(void)state;
	fit_format_scale(0.0625, b, sizeof b);
	assert_string_equal(b, "1/16");
	fit_format_scale(1.0 / 3, b, sizeof b);
	assert_string_equal(b, "1/3");
	fit_format_scale(8, b, sizeof b);
	assert_string_equal(b, "8");
}

/* Column 1 only pulls the fit down (y = -1 where it alone is set): NNLS must keep it at 0, where
   plain least squares gives it a negative weight. The optimum with x1 = 0 solves
   7 x0 + 3 x2 = 14, 3 x0 + 3 x2 = 8: x0 = 3/2, x2 = 7/6 (and the gradient for x1 is -5/3 < 0). */
static void test_nnls_keeps_coefficients_non_negative(void **state)
{
	double G[9] = {0}, h[3] = {0}, x[3];
	const double rows[6][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {1, 0, 1}, {2, 1, 1}};
	const double y[6] = {2, -1, 1, 1, 3, 4};

	(void)state;
	for (int r = 0; r < 6; r++)
		for (int i = 0; i < 3; i++) {
			h[i] += rows[r][i] * y[r];
			for (int j = 0; j < 3; j++)
				G[i * 3 + j] += rows[r][i] * rows[r][j];
		}
	assert_int_equal(fit_nnls(G, h, 3, x), 0);
	assert_true(x[1] == 0);
	assert_true(fabs(x[0] - 1.5) < 1e-9);
	assert_true(fabs(x[2] - 7.0 / 6) < 1e-9);
}

static void test_nnls_recovers_an_exact_sum_of_large_columns(void **state)
{
	double G[4] = {0}, h[2] = {0}, x[2];

	(void)state;
	for (int r = 1; r <= 20; r++) {
		double a = r * 1e8, b = (r % 7) * 3e5, y = a + 2 * b;
		G[0] += a * a, G[1] += a * b, G[2] += a * b, G[3] += b * b;
		h[0] += a * y, h[1] += b * y;
	}
	assert_int_equal(fit_nnls(G, h, 2, x), 0);
	assert_true(fabs(x[0] - 1) < 1e-6);
	assert_true(fabs(x[1] - 2) < 1e-4);
}

/* Strongly correlated columns (as lines_read and bytes_loaded are): after column 0 is eliminated, row 2's
   entry outweighs row 1's, so the elimination swaps them, right-hand side included; an exact sum of all
   three with positive weights is then found (a swap that left the right-hand side gave 0, 3.35, 1.35). */
static void test_nnls_solves_a_system_that_needs_a_pivot_swap(void **state)
{
	double G[9] = {0}, h[3] = {0}, x[3];
	const double rows[4][3] = {{0, 4, 3}, {2, 3, 1}, {2, 1, 0}, {1, 4, 3}}, want[3] = {1, 2, 3};

	(void)state;
	for (int r = 0; r < 4; r++) {
		double y = rows[r][0] * want[0] + rows[r][1] * want[1] + rows[r][2] * want[2];
		for (int i = 0; i < 3; i++) {
			h[i] += rows[r][i] * y;
			for (int j = 0; j < 3; j++)
				G[i * 3 + j] += rows[r][i] * rows[r][j];
		}
	}
	assert_int_equal(fit_nnls(G, h, 3, x), 0);
	for (int i = 0; i < 3; i++)
		assert_true(fabs(x[i] - want[i]) < 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quantile_interpolates_between_sorted_values),
		cmocka_unit_test(test_line_fit_recovers_slope_intercept_and_r2),
		cmocka_unit_test(test_line_fit_r2_drops_with_scatter),
		cmocka_unit_test(test_line_fit_of_constant_y_explains_nothing),
		cmocka_unit_test(test_line_fit_refuses_constant_x),
		cmocka_unit_test(test_nearest_simple_value_is_relative),
		cmocka_unit_test(test_scale_is_written_as_a_fraction),
		cmocka_unit_test(test_nnls_keeps_coefficients_non_negative),
		cmocka_unit_test(test_nnls_recovers_an_exact_sum_of_large_columns),
		cmocka_unit_test(test_nnls_solves_a_system_that_needs_a_pivot_swap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
