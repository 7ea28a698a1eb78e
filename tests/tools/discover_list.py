"""discover_list.py — the candidate rows of `pmucheck discover --list` (harness/discover/disc.c): the lines
of eleven tab-separated fields under its "# name spec pmu origin config config1 counters scale unit source
group" header, each as its list of fields. discover.sh's checks import it (PYTHONPATH=tests/tools)."""


def candidates(text):
    return [r for r in (l.split("\t") for l in text.splitlines()) if len(r) > 10 and not r[0].startswith("#")]
