# doc_fields.py JSON DOC SECTION [SKIP...] — every member the JSON file holds, at any depth, is named in
# DOC's section SECTION (from its "## SECTION" heading to the next "## "): quoted ("name", as the
# sketches of machine.json and events.json write it; within one line, so a name may hold spaces, as
# merge.json's facts "prefetcher MSRs" and "cache sizes" do) or as a word in code (`name`, `experiments[].name`,
# `{name, status}`). Members under a dotted path in SKIP ([] for arrays) are data, not fields (a
# config's hypotheses, keyed by event). Fails naming each member the section lacks.
import json, re, sys

path, doc, section, skip = sys.argv[1], sys.argv[2], sys.argv[3], set(sys.argv[4:])
parts = open(doc).read().split("\n## " + section + "\n")
assert len(parts) > 1, "%s: no section '## %s'" % (doc, section)
text = parts[1].split("\n## ")[0]
quoted = set(re.findall(r'"([^"\n]+)"', text))
code = set(w for span in re.findall(r"`([^`]*)`", text) for w in re.findall(r"[A-Za-z_][\w-]*", span))
missing = set()


def walk(o, at):
    if at in skip:
        return
    if isinstance(o, dict):
        for k, v in o.items():
            member = (at + "." + k).lstrip(".")
            if k not in quoted and k not in code:
                missing.add(member)
            walk(v, member)
    elif isinstance(o, list):
        for v in o:
            walk(v, at + "[]")


walk(json.load(open(path)), "")
assert not missing, "%s: not in %s, section '%s': %s" % (path, doc, section, sorted(missing))
