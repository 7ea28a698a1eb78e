#include "level_capacity.h"

/* The threads of `threads` that share one instance of level l. */
static int sharing(const struct level_cache *c, enum level l, int threads)
{
	int k = c[l].sharers < threads ? c[l].sharers : threads;

	return k < 1 ? 1 : k;
}

static int victim(const struct level_cache *c, enum level l)
{
	return l == LEVEL_L3 && c[l].inclusion == LEVEL_NOT_INCLUSIVE;
}

double level_capacity(const struct level_cache *c, enum level l, int threads)
{
	int k = sharing(c, l, threads);
	double own;

	if (!victim(c, l))
		return c[l].size / k;
	/* a measured end is one thread's L2 and L3 together: the L3's own part is what lies past the L2 */
	own = c[l].measured ? c[l].size - level_capacity(c, LEVEL_L2, 1) : c[l].size;
	if (own <= 0)
		return c[l].size / k;
	return level_capacity(c, LEVEL_L2, threads) + own / k;
}

double level_capacity_alone(const struct level_cache *c, enum level l, double per_thread, int threads)
{
	int k = sharing(c, l, threads);
	double past = victim(c, l) ? per_thread - level_capacity(c, LEVEL_L2, threads) : 0;

	if (past <= 0)
		return per_thread * k;
	return level_capacity(c, LEVEL_L2, 1) + past * k;
}
