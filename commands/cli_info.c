/* cli_info.c — `pmucheck info`: what this machine is and what pmucheck can do on it. */
#include <getopt.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "clock_aperf.h"
#include "core_clock.h"
#include "cpu_limit.h"
#include "ctr.h"
#include "experiment.h"
#include "msr.h"
#include "pf.h"
#include "sysinfo.h"
#include "levels.h"
#include "levels_history.h"
#include "machine.h"
#include "topo.h"
#include "tsc.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmucheck info [--json] [--levels [--quick]]\n\n"
		"Prints the CPU, the topology and caches (hwloc), the ISA extensions the kernels use,\n"
		"huge pages and SMT, the measured TSC and core clocks.\n\n"
		"  --json      the same as one JSON object\n"
		"  --levels    also measure where each cache level ends (the level probe 'run' makes\n"
		"              first: a pointer chase over a geometric size grid on the first CPU) and\n"
		"              the sizes a run would take from it; the probe joins this machine's level\n"
		"              history (levels.json in the state directory), which later runs plan from\n"
		"  --quick     with --levels: the coarser grid of 'run --quick'\n"
		"  -h, --help\n");
}

/* Which prefetcher table applies and whether its MSR can be read, in words. */
static void prefetch_print(const struct sysinfo *sys, FILE *f)
{
	const struct pf_table *tab;
	const char *model;
	struct err e;
	int fd;

	if (pf_table_for(&sys->cpu, &tab, &model, &e)) {
		fprintf(f, "prefetchers     not controllable: %s\n", e.msg);
		return;
	}
	fprintf(f, "prefetchers     %s: MSR 0x%x,", model, tab->msr);
	for (unsigned i = 0; i < tab->nbits; i++)
		fprintf(f, " %s (bit %u)", tab->bits[i].name, tab->bits[i].bit);
	if (*tab->left_running)
		fprintf(f, "\n                not switched, 'off' leaves it running: %s", tab->left_running);
	if (msr_open(0, 0, &fd, &e)) {
		fprintf(f,
			"\n                no access: %s; the prefetcher-off experiments will be skipped\n",
			e.msg);
		return;
	}
	close(fd);
	fprintf(f, "\n                accessible ('pmucheck prefetch status' shows their state)\n");
}

/* The architecture config `run` would use here, read once for config_print and the clock's bounds. found is
   set only where it loaded (experiment_load_config): a broken one is not found either. */
struct info_config {
	int broken, found;
	struct cfg c;
	char path[4096];
	struct err e;
};

static void config_load(const struct sysinfo *sys, struct info_config *ic)
{
	ic->broken = experiment_load_config(NULL, &sys->cpu, &ic->c, &ic->found, ic->path, sizeof ic->path,
					    &ic->e) != 0;
}

static void config_free(struct info_config *ic)
{
	if (ic->found)
		cfg_free(&ic->c);
}

/* The core's L1 ports the config gives: the analysis judges the points' clocks by them (kern_past_ports). */
static void ports_print(const struct kern_ports *p, FILE *f)
{
	char said[160];

	kern_ports_format(said, sizeof said, p);
	if (said[0])
		fprintf(f,
			"L1 ports        per core cycle at most %s (a point past them at its clock has no "
			"figure in cycles)\n",
			said);
	else
		fprintf(f,
			"L1 ports        not given: a point's clock is judged only by what any core can "
			"do\n");
}

static void config_print(const struct info_config *ic, FILE *f)
{
	char warning[512];
	json_t *pmu;

	if (ic->broken) {
		fprintf(f, "config          broken: %s\n", ic->e.msg);
		return;
	}
	if (!ic->found) {
		fprintf(f, "config          %s\n", ic->path);
		return;
	}
	fprintf(f, "config          %s: %s, %u candidate events ('pmucheck run --config FILE' overrides)\n",
		ic->path, ic->c.arch.title ? ic->c.arch.title : ic->c.arch.name, ic->c.nevents);
	pmu = experiment_pmu_json(&ic->c, warning, sizeof warning);
	fprintf(f, "libpfm4 PMU     %s%s\n", *warning ? "warning: " : "",
		json_string_value(json_object_get(pmu, "note")));
	json_decref(pmu);
	ports_print(&ic->c.arch.ports, f);
}

/* The probe's curve in one line per point, the plateaus it found, what disagrees with hwloc, and the
   sizes a run would take from it (t after levels_apply). */
static void levels_print(const struct levels_probe *p, const struct topo *t, int cpu)
{
	printf("\nlevel probe (pointer chase on CPU %d, per access):\n", cpu);
	for (int i = 0; i < p->npoints; i++)
		if (p->cycles[i] > 0)
			printf("  %10.1f KiB  %7.2f ns  %7.2f cycles\n", p->size[i] / 1024.0, p->ns[i],
			       p->cycles[i]);
		else
			printf("  %10.1f KiB  %7.2f ns\n", p->size[i] / 1024.0, p->ns[i]);
	for (int i = 0; i < p->nplateaus; i++)
		printf("plateau %d       %.1f-%.1f KiB, %.2f ns\n", i + 1, p->plateau[i].first / 1024.0,
		       p->plateau[i].last / 1024.0, p->plateau[i].ns);
	for (int i = 0; i < p->ndisagreements; i++)
		printf("disagreement    %s\n", p->disagreements[i]);
	printf("a run takes    ");
	for (int l = 0; l < t->ncaches; l++)
		printf("%s L%d %.1f KiB (%s)", l ? "," : "", l + 1,
		       (t->caches[l].measured ? t->caches[l].measured : t->caches[l].size) / 1024.0,
		       t->caches[l].measured ? "measured" : "reported");
	printf("\n");
}

/* The cgroup's CPU quota (cpu_limit.h): what a run here may use of the usable CPUs. */
static void cpu_limit_print(const struct cpu_limit *l, int known, const struct err *e)
{
	double cpus = cpu_limit_cpus(l);

	if (!known)
		printf("cpu limit       unknown: %s\n", e->msg);
	else if (cpus > 0)
		printf("cpu limit       %.2g %s worth of time per %.0f ms (cgroup %s, %s): once a run's "
		       "threads used it, the kernel stops them for the rest of the period\n",
		       cpus, cpus == 1 ? "CPU's" : "CPUs'", (double)l->period_us / 1000, l->cgroup,
		       l->version == 1 ? "cpu.cfs_quota_us" : "cpu.max");
	else
		printf("cpu limit       none (cgroup %s and its parents)\n", l->cgroup);
}

/* the short options, for getopt_long and for cli_option_error's message alike */
#define SHORTOPTS "h"

static int cmd_info(int argc, char **argv)
{
	static const struct option options[] = {{"json", no_argument, NULL, 'j'},
						{"levels", no_argument, NULL, 'l'},
						{"quick", no_argument, NULL, 'q'},
						{"help", no_argument, NULL, 'h'},
						{NULL, 0, NULL, 0}};
	struct sysinfo sys;
	struct topo t;
	struct err e;
	int c, json = 0, levels = 0, quick = 0, r;
	struct levels_probe probe;
	struct levels_history history;
	struct clock_bounds bounds;
	struct clock_machine k = {.bounds = &bounds}; /* as a run's, on the CPU a run's points start on */
	int limited;
	struct cpu_limit limit;
	struct err le;
	struct info_config ic;

	cli_getopt_start();
	while ((c = getopt_long(argc, argv, SHORTOPTS, options, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		if (c == 'j' || c == 'l' || c == 'q') {
			*(c == 'j' ? &json : c == 'l' ? &levels : &quick) = 1;
			continue;
		}
		return cli_fail("info", cli_option_error(c, argv, SHORTOPTS, options, &e), &e);
	}
	if (optind < argc) {
		err_set(&e, E_USAGE, "unexpected argument '%s'", argv[optind]);
		return cli_fail("info", E_USAGE, &e);
	}
	if (quick && !levels) {
		err_set(&e, E_USAGE, "--quick: only with --levels");
		return cli_fail("info", E_USAGE, &e);
	}
	r = topo_load(&t, &e);
	if (r)
		return cli_fail("info", r, &e);
	sysinfo_read(&sys);
	limited = cpu_limit_find(CPU_LIMIT_ROOT, &limit, &le) == 0;
	k.tsc_hz = tsc_calibrate_hz(50);
	config_load(&sys, &ic);
	/* with the highest stock clock that config gives, where it gives one, as a run's (run_job.c) */
	clock_bounds_read(CLOCK_SYSFS_ROOT, &sys.cpu, ic.found ? ic.c.arch.max_ghz : 0, ic.path, &bounds);
	r = topo_on_cpu(t.cpus[0], clock_machine_measure, &k, &e);
	if (!r && levels)
		r = levels_measure(&probe, &t, t.cpus[0], k.tsc_hz, &bounds, quick, &e);
	if (r) {
		config_free(&ic);
		topo_free(&t);
		return cli_fail("info", r, &e);
	}
	if (levels) {
		levels_apply(&probe, &t);
		levels_history_apply(&history, &probe, &t, t.cpus[0], (int64_t)time(NULL));
	}
	if (json) {
		struct machine_facts clock_facts = {.tsc_hz = k.tsc_hz,
						    .core_ghz = k.no_clock ? 0 : k.ghz,
						    .core_clock_note = k.no_clock ? k.why.msg : NULL,
						    .clock = &bounds,
						    .aperf_note = k.use_aperf ? NULL : k.aperf_why};
		json_t *o = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}", "host", sys.host, "cpu",
				      sysinfo_cpu_json(&sys), "os", sysinfo_os_json(&sys), "topology",
				      topo_json(&t), "clock", machine_clock_json(&clock_facts), "counters",
				      ctr_availability_json());
		json_object_set_new(o, "cpu_limit",
				    limited ? cpu_limit_json(&limit, NULL, NULL) : json_null());
		if (levels) {
			json_t *l = levels_json(&probe);
			json_object_set_new(l, "measured", topo_measured_json(&t));
			json_object_set_new(l, "history", levels_history_json(&history));
			json_object_set_new(o, "levels", l);
		}
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
		fputc('\n', stdout);
		json_decref(o);
	} else {
		sysinfo_print(&sys, stdout);
		topo_print(&t, stdout);
		cpu_limit_print(&limit, limited, &le);
		printf("clock           TSC %.3f GHz, core of CPU %d ", k.tsc_hz * 1e-9, t.cpus[0]);
		if (k.no_clock)
			printf("unknown (every dependent-add chain sample rejected: %s)\n", k.why.msg);
		else
			printf("%.3f GHz (dependent-add chain; at most %.3g GHz: %s)\n", k.ghz,
			       bounds.max_ghz, bounds.source);
		if (k.use_aperf)
			printf("                a run's repetitions: APERF/MPERF (perf msr PMU)\n");
		else
			printf("                a run's repetitions: add chains (APERF/MPERF not used: %s)\n",
			       k.aperf_why);
		prefetch_print(&sys, stdout);
		config_print(&ic, stdout);
		printf("\n");
		ctr_availability_print(stdout);
		if (levels)
			levels_print(&probe, &t, t.cpus[0]);
	}
	config_free(&ic);
	topo_free(&t);
	return 0;
}

CLI_COMMAND("info", cmd_info, "describe this machine: CPU, caches, clocks, counters, prefetchers");
