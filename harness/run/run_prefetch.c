#include <string.h>

#include "list_each.h"
#include "pf.h"
#include "run_prefetch.h"

/* The longest list of prefetcher names a state may give (far more than any table's names together): a
   longer one was cut, and refused by a name the user never wrote. */
#define PF_NAMES_MAX 256

/* The pf_set argument of a state: "" for on, "all" for off, "a,b" for off:a+b. */
static void names_off(const char *state, char *out, size_t len)
{
	if (!strcmp(state, "off"))
		snprintf(out, len, "all");
	else if (!strncmp(state, "off:", 4)) {
		snprintf(out, len, "%s", state + 4);
		for (char *c = out; *c; c++)
			if (*c == '+')
				*c = ',';
	} else
		out[0] = 0;
}

/* One item of --prefetch (list_each) as written, whatever CPU: on, off or off:NAME+NAME, no name empty;
   whether the names are this CPU's prefetchers, check_state says. */
static int state_syntax(void *ctx, const char *option, const char *state, struct err *e)
{
	(void)ctx;
	if (!strcmp(state, "on") || !strcmp(state, "off"))
		return 0;
	if (!strncmp(state, "off:", 4) && strlen(state + 4) >= PF_NAMES_MAX)
		return err_set(e, E_USAGE, "%s: '%.40s...' names more than %d characters of prefetchers",
			       option, state, PF_NAMES_MAX - 1);
	if (strncmp(state, "off:", 4) != 0 || !state[4])
		return err_set(e, E_USAGE, "%s: '%s' is not a prefetcher state (on, off, off:NAME+NAME)",
			       option, state);
	for (const char *p = state + 4;; p++) {
		size_t n = strcspn(p, "+");
		if (!n)
			return err_set(e, E_USAGE, "%s: '%s' names an empty prefetcher", option, state);
		p += n;
		if (!*p)
			return 0;
	}
}

int run_pf_states_syntax(const char *list, struct err *e)
{
	return list ? list_each("--prefetch", list, state_syntax, NULL, e) : 0;
}

/* Checks a state and gives the name the run records, one per set of prefetchers: off:NAMES with its names
   in the order of this CPU's table, so that off:a+b and off:b+a are one state, measured once; and "off"
   where they are every prefetcher of the table (off:all), since the analysis judges an "off:" state as a
   subset apart from off (point_level.c; off:all alone, which runs before this wrote, it reads as off), and
   a set naming every prefetcher left a demand-only event "exact", not prefetch-blind. */
static int check_state(const char *state, char *name, size_t len, struct err *e)
{
	const struct pf_table *t;
	char names[PF_NAMES_MAX];
	uint64_t bits;
	size_t n;

	snprintf(name, len, "%s", state);
	if (state_syntax(NULL, "--prefetch", state, e))
		return E_USAGE;
	if (!strcmp(state, "on") || !strcmp(state, "off"))
		return 0;
	names_off(state, names, sizeof names);
	if (pf_machine_table(&t, e) || pf_parse_names_in(t, names, &bits, e))
		return err_wrap(e, E_USAGE, "--prefetch");
	if (bits == pf_table_mask(t)) {
		snprintf(name, len, "off");
		return 0;
	}
	n = (size_t)snprintf(name, len, "off");
	for (unsigned i = 0; i < t->nbits && n < len; i++)
		if (bits & (1ull << t->bits[i].bit))
			n += (size_t)snprintf(name + n, len - n, "%c%s", n == 3 ? ':' : '+', t->bits[i].name);
	return 0;
}

static int add_state(struct plan_opts *o, const char *name, const char *given, struct err *e)
{
	for (int i = 0; i < o->npf; i++)
		if (!strcmp(o->pf_states[i], name))
			return strcmp(name, given)
				? err_set(e, E_USAGE, "--prefetch: '%s' is '%s', listed twice", given, name)
				: err_set(e, E_USAGE, "--prefetch: '%s' is listed twice", name);
	if (o->npf == PLAN_MAX_PF)
		return err_set(e, E_USAGE, "--prefetch: more than %d states", PLAN_MAX_PF);
	snprintf(o->pf_states[o->npf++], sizeof o->pf_states[0], "%s", name);
	return 0;
}

/* Whether state is an item of the comma-separated list: a substring is not one, since a state's name
   may begin another's ("off" in "off:l2-stream"). */
static int listed(const char *list, const char *state)
{
	size_t n = strlen(state);

	for (const char *s = list; s; s = strchr(s, ',')) {
		s += *s == ',';
		if (!strncmp(s, state, n) && (s[n] == ',' || !s[n]))
			return 1;
	}
	return 0;
}

/* Without control only one uncontrolled state is measured; every other state is reported as skipped,
   once (each experiment's states come here). */
static void drop_controlled(struct run_pf *p, struct plan_opts *o)
{
	size_t n = strlen(p->skipped);

	for (int i = 0; i < o->npf; i++)
		if (strcmp(o->pf_states[i], "on") != 0 && strcmp(o->pf_states[i], "uncontrolled") != 0 &&
		    !listed(p->skipped, o->pf_states[i]))
			n += (size_t)snprintf(p->skipped + n, sizeof p->skipped - n, "%s%s", n ? "," : "",
					      o->pf_states[i]);
	o->npf = 1;
	strcpy(o->pf_states[0], "uncontrolled");
}

/* One item of --prefetch (list_each): checked, and added under the name the run records. */
static int add_item(void *ctx, const char *option, const char *item, struct err *e)
{
	struct plan_opts *o = ctx;
	char name[sizeof o->pf_states[0]];

	(void)option;
	return check_state(item, name, sizeof name, e) ? E_USAGE : add_state(o, name, item, e);
}

int run_pf_states(const char *list, struct plan_opts *o, struct err *e)
{
	o->npf = 0;
	if (!list) {
		add_state(o, "on", "on", NULL);
		add_state(o, "off", "off", NULL);
		return 0;
	}
	return list_each("--prefetch", list, add_item, o, e);
}

/* Whether the config's [arch] prefetch lets the run switch this CPU's prefetchers: "listed" leaves it to
   pmucheck's lists (pf_table.c), "none" says the architecture's MSRs are not to be touched, and another
   layout than this CPU's table (a --config for another machine) vouches for other bits: even on the same
   MSR (intel-1a4 and Xeon Phi's intel-knl are both 0x1a4) the bits written would be the table's, which
   the config does not describe. NULL: no config. */
static int config_allows(struct run_pf *p, const char *config_table, const struct pf_table *t)
{
	if (!config_table || !strcmp(config_table, "listed"))
		return 1;
	if (!strcmp(config_table, "none")) {
		snprintf(p->reason, sizeof p->reason,
			 "the config's [arch] prefetch = none: the prefetcher MSRs are not touched");
		return 0;
	}
	if (t && strcmp(t->layout, config_table) != 0) {
		snprintf(p->reason, sizeof p->reason,
			 "the config's [arch] prefetch = %s is not this CPU's table (%s: %s, MSR 0x%x): "
			 "the MSRs are not touched",
			 config_table, t->name, t->layout, (unsigned)t->msr);
		return 0;
	}
	return 1;
}

void run_pf_open(struct run_pf *p, const int *cpus, int ncpus, const char *config_table)
{
	const struct pf_table *t = NULL;
	struct err e;

	memset(p, 0, sizeof *p);
	if (pf_machine_table(&t, &e) == 0)
		snprintf(p->left_running, sizeof p->left_running, "%s", t->left_running);
	else
		t = NULL;
	if (!config_allows(p, config_table, t))
		return;
	if (pf_open(&p->ctl, cpus, ncpus, &e) != 0) {
		p->ctl = NULL;
		snprintf(p->reason, sizeof p->reason, "%s", e.msg);
		return;
	}
	pf_values(p->ctl, p->before, sizeof p->before);
}

void run_pf_predict(struct run_pf *p, const int *cpus, int ncpus, const char *config_table)
{
	const struct pf_table *t = NULL;
	struct err e;

	memset(p, 0, sizeof *p);
	if (pf_machine_table(&t, &e) != 0)
		t = NULL;
	if (!config_allows(p, config_table, t))
		return;
	if (pf_check(cpus, ncpus, &e) != 0)
		snprintf(p->reason, sizeof p->reason, "%s", e.msg);
	else
		p->predicted = 1;
}

void run_pf_use(struct run_pf *p, struct plan_opts *o)
{
	p->opts = o;
	if (!p->ctl && !p->predicted)
		drop_controlled(p, o);
}

int run_pf_set(void *ctx, int state, char *msr, size_t len, struct err *e)
{
	struct run_pf *p = ctx;
	char names[256];
	int rc;

	msr[0] = 0;
	if (!p->ctl)
		return 0;
	names_off(p->opts->pf_states[state], names, sizeof names);
	rc = pf_set(p->ctl, names, e);
	if (rc)
		return err_wrap(e, rc, "prefetch state '%s'", p->opts->pf_states[state]);
	pf_values(p->ctl, msr, len);
	return 0;
}

int run_pf_end(struct run_pf *p, struct err *e)
{
	int rc;

	if (!p->ctl)
		return 0;
	rc = pf_restore(p->ctl, e);
	if (!rc)
		pf_values(p->ctl, p->after, sizeof p->after);
	pf_close(p->ctl);
	p->ctl = NULL;
	return rc;
}

json_t *run_pf_json(const struct run_pf *p)
{
	if (!p->before[0])
		return json_pack("{s:b, s:s, s:s}", "control", 0, "reason", p->reason, "skipped", p->skipped);
	return json_pack("{s:b, s:s, s:s, s:s}", "control", 1, "before", p->before, "after", p->after,
			 "left_running", p->left_running);
}
