# merge_fake.sh — nodes for tests/integration/merge*.sh, each a copy of one analysed run $R (sourced after
# tests/lib.sh): merge tells nodes apart by machine.json's host, and an event's verdict by events.json.

node() { # NAME: a copy of the run as node NAME
	cp -r "$R" "$TMP/$1" && sed -i "s/\"host\": \"[^\"]*\"/\"host\": \"$1\"/" "$TMP/$1/machine.json"
}

set_class() { # NODE EVENT CLASS: the node's verdict on EVENT becomes CLASS
	python3 - "$TMP/$1/events.json" "$2" "$3" <<'PY'
import json, sys
path, event, cls = sys.argv[1:4]
j = json.load(open(path))
for ev in j["events"]:
    if ev["event"] == event:
        ev["class"] = cls
json.dump(j, open(path, "w"))
PY
}
