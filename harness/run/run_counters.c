/* run_counters.c — the event groups of a point's passes: opened on each thread's CPU (thread scope) or
 * on one CPU of every socket and L3 the point uses (socket scope), read after each call, closed after
 * the repetition, and each event's count the difference of the R and 2R calls (run_int.h). */
#include <stdio.h>
#include <string.h>

#include "ctr.h"
#include "run_int.h"
#include "topo.h"

void run_counters_mark_failed(struct ctr_reading *rd, unsigned n, const char *why)
{
	for (unsigned k = 0; k < n; k++) {
		rd[k].status = CTR_FAILED;
		snprintf(rd[k].reason, sizeof rd[k].reason, "%s", why);
	}
}

void run_counters_stop_read(struct ctr_set *set, struct ctr_reading *rd, unsigned n)
{
	struct err e;

	if (ctr_stop(set, &e) || ctr_read(set, rd, &e))
		run_counters_mark_failed(rd, n, e.msg);
}

/* Opens one set for both passes (the lo and hi readings are separate start..stop intervals). */
static void open_pair(const struct ctr_group *grp, int cpu, struct pass_counters pc[2])
{
	struct err e;

	memset(pc[0].rd, 0, sizeof pc[0].rd);
	memset(pc[1].rd, 0, sizeof pc[1].rd);
	pc[0].set = pc[1].set = NULL;
	if (ctr_open(grp, cpu, &pc[0].set, &e)) {
		pc[0].set = NULL;
		run_counters_mark_failed(pc[0].rd, grp->n, e.msg);
		run_counters_mark_failed(pc[1].rd, grp->n, e.msg);
	}
	pc[1].set = pc[0].set;
}

/* Opens this thread's counters for a group (the master opens socket-scope ones, on every socket used). */
void run_counters_open(struct group_ctx *g, const struct ctr_group *grp, int tid)
{
	int cpu[MAX_UNCORE_UNITS]; /* where each unit's set would open (ctr_open_cpu) */

	if (grp->scope != CTR_SCOPE_SOCKET) {
		open_pair(grp, g->s->cfg->plan.cpus[tid], g->pc[tid]);
		return;
	}
	for (int k = 0; tid == 0 && k < g->nuncore; k++) {
		cpu[k] = ctr_open_cpu(grp, g->uncore[k].cpu);
		g->sock_dup[k] = 0;
		for (int j = 0; j < k; j++)
			g->sock_dup[k] |= cpu[j] == cpu[k];
		if (g->sock_dup[k]) { /* nothing to open: counted once, from the first socket */
			memset(g->sock[k], 0, sizeof g->sock[k]);
			continue;
		}
		open_pair(grp, g->uncore[k].cpu, g->sock[k]);
	}
}

void run_counters_close(struct group_ctx *g, const struct ctr_group *grp, int tid)
{
	if (grp->scope != CTR_SCOPE_SOCKET && g->pc[tid][0].set)
		ctr_close(g->pc[tid][0].set);
	for (int k = 0; grp->scope == CTR_SCOPE_SOCKET && tid == 0 && k < g->nuncore; k++)
		if (g->sock[k][0].set)
			ctr_close(g->sock[k][0].set);
}

/* One counted event of a pass: the difference of the two calls, summed over threads for thread scope;
   any reading that is not ok becomes the event's status (and it has no count). */
void run_counters_event(const struct group_ctx *g, const struct ctr_group *grp, unsigned k, int nt,
			struct rec_event *out)
{
	int sock = grp->scope == CTR_SCOPE_SOCKET, n = sock ? g->nuncore : nt;

	memset(out, 0, sizeof *out);
	out->status = CTR_OK;
	out->has_count = 1;
	for (int i = 0; i < n; i++) {
		if (sock && g->sock_dup[i])
			continue;
		const struct pass_counters *lo = sock ? &g->sock[i][0] : &g->pc[i][0];
		const struct pass_counters *hi = sock ? &g->sock[i][1] : &g->pc[i][1];
		const struct ctr_reading *bad = lo->rd[k].status != CTR_OK ? &lo->rd[k]
			: hi->rd[k].status != CTR_OK                       ? &hi->rd[k]
									   : NULL;
		if (i == 0) {
			out->time_enabled = hi->rd[k].time_enabled;
			out->time_running = hi->rd[k].time_running;
		}
		if (bad) {
			out->status = bad->status;
			snprintf(out->reason, sizeof out->reason, "%s", bad->reason);
			out->has_count = 0;
			return;
		}
		out->count += (int64_t)(hi->rd[k].count - lo->rd[k].count);
	}
}

/* A per-L3 PMU (AMD's amd_l3, one per CCX) counts the L3 of the CPU it is opened on: beside the sockets, one
   unit for each further L3 the threads run under. A socket-wide PMU maps such a unit to its socket's CPU
   again (ctr_open_cpu), and run_counters_open counts that CPU once, so only per-L3 PMUs gain from them. */
void run_counters_add_l3_units(struct group_ctx *g, const int *cpus, int threads)
{
	int l3[TOPO_MAX_L3_DOMAINS], n = topo_l3_cpus(g->s->topo, cpus, threads, l3, TOPO_MAX_L3_DOMAINS);

	for (int i = 0; i < n && g->nuncore < MAX_UNCORE_UNITS; i++) {
		int k = 0;
		while (k < g->nuncore && g->uncore[k].cpu != l3[i])
			k++;
		if (k == g->nuncore)
			g->uncore[g->nuncore++] = (struct topo_socket_use){-1, l3[i], 1, 0};
	}
}
