#!/usr/bin/env python3
"""check_metrics.py FORMAT FILE... — checks exported metric files against the formats their tools read.

  perf    metrics.json: a JSON array of objects with the pmu-events metric keys; every MetricExpr
          parses with perf's expression grammar (tools/perf/util/expr.l / expr.y): numbers, event
          names (letters, digits, _ . : @ ? and \\- \\, \\= escapes), + - * / and parentheses.
  likwid  group files: SHORT line, EVENTSET of "COUNTER[:OPTION...]  EVENT", METRICS of
          "Name [unit]  formula" over the EVENTSET's counters, time, inverseClock and numbers, LONG text.
  papi    papi_events.csv: comments, CPU,<pmu> lines, then PRESET,NAME,TYPE[,postfix],EVENT...
          [,LDESC|SDESC|NOTE,text]; postfix is integer RPN over N<i> operands.
Prints one line per problem and exits 1 if there was any; --names prints the event names used."""
import json
import re
import sys

# the metric keys jevents.py reads (tools/perf/pmu-events/jevents.py, _json_metric_attributes)
PERF_KEYS = {"MetricName", "MetricExpr", "MetricGroup", "ScaleUnit", "BriefDescription", "PerPkg",
             "MetricConstraint", "MetricThreshold", "PublicDescription", "Unit", "Compat", "DefaultMetricgroupName",
             "MetricgroupNoGroup", "EventGrouping"}
PERF_TOKEN = re.compile(r"\s*(?:(?P<num>\d+(?:\.\d+)?(?:e-?\d+)?(?![A-Za-z_\\@:.]))|"
                        r"(?P<id>(?:[A-Za-z0-9_.:@?]|\\[-,=])+)|(?P<op>[-+*/()]))")


def tokens(expr, token_re):
    pos, out = 0, []
    expr = expr.strip()
    while pos < len(expr):
        m = token_re.match(expr, pos)
        if not m or m.end() == pos:
            raise ValueError(f"cannot read '{expr[pos:]}'")
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        pos = m.end()
        while pos < len(expr) and expr[pos] == " ":
            pos += 1
    return out


def parse_expr(toks):
    """expr := term (('+'|'-') term)*; term := unary (('*'|'/') unary)*; unary := '-' unary | atom"""
    pos = 0

    def atom():
        nonlocal pos
        if pos >= len(toks):
            raise ValueError("expression ends early")
        kind, text = toks[pos]
        if kind in ("num", "id"):
            pos += 1
            return [text] if kind == "id" else []
        if text == "(":
            pos += 1
            ids = expr()
            if pos >= len(toks) or toks[pos][1] != ")":
                raise ValueError("missing ')'")
            pos += 1
            return ids
        if text == "-":
            pos += 1
            return atom()
        raise ValueError(f"unexpected '{text}'")

    def chain(sub, ops):
        nonlocal pos
        ids = sub()
        while pos < len(toks) and toks[pos][0] == "op" and toks[pos][1] in ops:
            pos += 1
            ids += sub()
        return ids

    def term():
        return chain(atom, "*/")

    def expr():
        return chain(term, "+-")

    ids = expr()
    if pos != len(toks):
        raise ValueError(f"unexpected '{toks[pos][1]}'")
    return ids


def check_perf(path, problems, names):
    with open(path) as f:
        doc = json.load(f)
    if not isinstance(doc, list) or not doc:
        problems.append(f"{path}: not a non-empty JSON array")
        return
    seen = set()
    for i, m in enumerate(doc):
        where = f"{path}[{i}]"
        if not isinstance(m, dict):
            problems.append(f"{where}: not an object")
            continue
        extra = set(m) - PERF_KEYS
        if extra:
            problems.append(f"{where}: keys outside the pmu-events metric schema: {sorted(extra)}")
        for k in ("MetricName", "MetricExpr", "BriefDescription"):
            if not isinstance(m.get(k), str) or not m[k]:
                problems.append(f"{where}: {k} missing or empty")
        if m.get("MetricName") in seen:
            problems.append(f"{where}: duplicate MetricName {m['MetricName']}")
        seen.add(m.get("MetricName"))
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", m.get("MetricName", "")):
            problems.append(f"{where}: MetricName '{m.get('MetricName')}' is no identifier")
        if "PerPkg" in m and m["PerPkg"] not in ("0", "1"):
            problems.append(f"{where}: PerPkg '{m['PerPkg']}' is not \"0\" or \"1\"")
        # jevents.py's metric constraints (tools/perf/util/metricgroup.h enum metric_event_groups)
        if "MetricConstraint" in m and m["MetricConstraint"] not in (
                "NO_GROUP_EVENTS", "NO_GROUP_EVENTS_NMI", "NO_GROUP_EVENTS_SMT", "NO_THRESHOLD_AND_NMI"):
            problems.append(f"{where}: unknown MetricConstraint '{m['MetricConstraint']}'")
        if "ScaleUnit" in m and not re.fullmatch(r"\d+(\.\d+)?(e-?\d+)?\S+", m["ScaleUnit"]):
            problems.append(f"{where}: ScaleUnit '{m['ScaleUnit']}' is not <number><unit>")
        try:
            ids = parse_expr(tokens(m.get("MetricExpr", ""), PERF_TOKEN))
            if "duration_time" not in ids:
                problems.append(f"{where}: MetricExpr is no rate (no duration_time)")
            for ident in ids:
                if ident != "duration_time":
                    names.append(re.sub(r"\\(.)", r"\1", ident).replace("@", "/"))
        except ValueError as e:
            problems.append(f"{where}: MetricExpr '{m.get('MetricExpr')}': {e}")


LIKWID_COUNTER = re.compile(r"(PMC|FIXC|CPMC|DFC|MBOX\d*C|CBOX\d*C|UPMC|PWR)\d+")
LIKWID_TOKEN = re.compile(r"\s*(?:(?P<num>\d+(?:\.\d+)?(?:[Ee][-+]?\d+)?)|(?P<id>[A-Za-z][A-Za-z0-9_]*)|"
                          r"(?P<op>[-+*/()]))")


def check_likwid(path, problems, names):
    with open(path) as f:
        lines = f.read().split("\n")
    if not lines or not re.fullmatch(r"SHORT \S.*", lines[0]):
        problems.append(f"{path}:1: the first line must be 'SHORT <description>'")
    sections, current = {}, None
    for no, line in enumerate(lines[1:], 2):
        if line in ("EVENTSET", "METRICS", "LONG"):
            if line in sections:
                problems.append(f"{path}:{no}: section {line} twice")
            current = line
            sections[line] = []
            continue
        if current is None and line.strip():
            problems.append(f"{path}:{no}: text outside a section")
        elif current and (line.strip() or current == "LONG"):
            sections[current].append((no, line))
    for s in ("EVENTSET", "METRICS", "LONG"):
        if s not in sections:
            problems.append(f"{path}: no {s} section")
    counters = set()
    for no, line in sections.get("EVENTSET", []):
        # a counter may carry LIKWID's options (PMC0:KERNEL, PMC3:EDGEDETECT, CBOX0C0:STATE=0x1); formulas
        # name the counter alone
        m = re.fullmatch(r"([A-Z0-9]+)((?::[A-Z0-9_]+(?:=0x[0-9A-Fa-f]+|=\d+)?)*)\s+([A-Z0-9_]+(?::[A-Z0-9_=x]+)*)",
                         line)
        if not m or not LIKWID_COUNTER.fullmatch(m.group(1)):
            problems.append(f"{path}:{no}: EVENTSET line is not 'COUNTER[:OPTION]  EVENT': {line}")
            continue
        if m.group(1) in counters:
            problems.append(f"{path}:{no}: counter {m.group(1)} used twice")
        counters.add(m.group(1))
        names.append(m.group(3))
    for no, line in sections.get("METRICS", []):
        m = re.fullmatch(r"(.*\S)\s+(\S+)", line)
        if not m:
            problems.append(f"{path}:{no}: METRICS line is not 'Name [unit]  formula'")
            continue
        try:
            for ident in parse_expr(tokens(m.group(2), LIKWID_TOKEN)):
                if ident not in counters and ident not in ("time", "inverseClock"):
                    problems.append(f"{path}:{no}: formula uses {ident}, not in EVENTSET")
        except ValueError as e:
            problems.append(f"{path}:{no}: formula '{m.group(2)}': {e}")
    if not any(line.strip() for _, line in sections.get("LONG", [])):
        problems.append(f"{path}: LONG section is empty")


def postfix_ok(ops, nevents):
    if not ops.endswith("|"):
        return False
    depth = 0
    for t in ops[:-1].split("|"):
        if re.fullmatch(r"N\d+", t):
            if int(t[1:]) >= nevents:
                return False
            depth += 1
        elif re.fullmatch(r"\d+", t):
            depth += 1
        elif t in ("+", "-", "*", "/"):
            if depth < 2:
                return False
            depth -= 1
        else:
            return False
    return depth == 1


def check_papi(path, problems, names):
    cpu = False
    with open(path) as f:
        rows = f.read().split("\n")
    if rows and rows[-1] == "":
        rows.pop()
    for no, line in enumerate(rows, 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split(",")
        if fields[0] == "CPU":
            if len(fields) != 2 or not fields[1]:
                problems.append(f"{path}:{no}: CPU line must be 'CPU,<pmu>'")
            cpu = True
            continue
        if fields[0] not in ("PRESET", "EVENT"):
            problems.append(f"{path}:{no}: unknown keyword {fields[0]}")
            continue
        if not cpu:
            problems.append(f"{path}:{no}: {fields[0]} before any CPU line")
        if len(fields) < 4 or not re.fullmatch(r"[A-Z0-9_]+", fields[1]):
            problems.append(f"{path}:{no}: expected PRESET,NAME,TYPE,EVENT...")
            continue
        kind, rest = fields[2], fields[3:]
        ops = None
        if kind == "DERIVED_POSTFIX":
            ops, rest = rest[0], rest[1:]
        elif kind not in ("NOT_DERIVED", "DERIVED_ADD", "DERIVED_SUB"):
            problems.append(f"{path}:{no}: unknown derived type {kind}")
            continue
        events = []
        while rest and rest[0] not in ("LDESC", "SDESC", "NOTE"):
            events.append(rest.pop(0))
        while rest:
            if len(rest) < 2 or rest[0] not in ("LDESC", "SDESC", "NOTE"):
                problems.append(f"{path}:{no}: trailing fields {rest} (a comma inside a description?)")
                break
            rest = rest[2:]
        if not events or (kind == "NOT_DERIVED" and len(events) != 1) or \
                (kind in ("DERIVED_ADD", "DERIVED_SUB") and len(events) < 2):
            problems.append(f"{path}:{no}: {kind} with {len(events)} events")
        if ops is not None and not postfix_ok(ops, len(events)):
            problems.append(f"{path}:{no}: bad postfix '{ops}'")
        names.extend(events)


def main():
    args = sys.argv[1:]
    show = "--names" in args
    args = [a for a in args if a != "--names"]
    if len(args) < 2 or args[0] not in ("perf", "likwid", "papi"):
        print(__doc__, file=sys.stderr)
        return 2
    problems, names = [], []
    check = {"perf": check_perf, "likwid": check_likwid, "papi": check_papi}[args[0]]
    for path in args[1:]:
        try:
            check(path, problems, names)
        except (OSError, ValueError) as e:
            problems.append(f"{path}: {e}")
    for p in problems:
        print(p)
    if show:
        for n in names:
            print(n)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
