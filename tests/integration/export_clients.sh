#!/bin/bash
# export_clients.sh — the exports of an AMD (Zen 3) and an Intel (Skylake-SP) results fixture, loaded by
# the real clients, each made to believe it runs on that CPU:
#   perf    picks its event table by CPUID: PERF_CPUID selects it, and a fake `cpu` PMU in sysfs (bind
#           mount in a private mount namespace) lets it list and parse core events; every `perf stat -e`
#           line of perf-stat.txt must parse (an unknown name is an "event syntax error").
#   LIKWID  reads the CPU from /etc/likwid_topo.cfg when present (overlay on /etc in the namespace) and
#           counters from /dev/cpu/N/msr (sparse files on a tmpfs there, /dev overlaid): every exported Zen 3 group runs
#           with -M 0 (direct access) without "not found". Skylake-SP groups are listed and printed only:
#           LIKWID 5.2.2 opens the Skylake-SP uncore PCI devices before any group runs, and there are none.
#   PAPI    loads the user-events file with PAPI_USER_EVENTS_FILE; here only software events can be
#           counted, so a fixture of perf software events stands in for hardware ones.
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
	skip "real clients on faked CPUs" "needs root and unshare -m (private mount namespaces)"
	exit 0
fi

export_fixture() { # NAME: the fixture copied to $TMP/NAME, exported in all three formats
	cp -r "$TOP/tests/tools/export_$1" "$TMP/$1"
	for fmt in perf likwid papi; do
		"$PMUCHECK" export "$TMP/$1" --format $fmt --out "$TMP/$1/$fmt" >/dev/null 2>&1
	done
}

# --- perf ---
fake_pmu() { # CPUID CMD...: runs CMD with perf's tables for CPUID and a cpu PMU in sysfs
	local cpuid=$1 d=$TMP/devices
	shift
	rm -rf "$d" && mkdir -p "$d/cpu/format"
	for p in /sys/bus/event_source/devices/*; do cp -r "$p/." "$d/$(basename "$p")" 2>/dev/null; done
	echo 4 >"$d/cpu/type"
	# the x86 core PMU's sysfs format (arch/x86/events: event 0-7 + AMD's 32-35, umask, edge, inv, cmask)
	echo config:0-7,32-35 >"$d/cpu/format/event"
	echo config:8-15 >"$d/cpu/format/umask"
	echo config:18 >"$d/cpu/format/edge"
	echo config:23 >"$d/cpu/format/inv"
	echo config:24-31 >"$d/cpu/format/cmask"
	echo config1:0-63 >"$d/cpu/format/offcore_rsp"
	unshare -m sh -c 'mount --bind "$0" /sys/bus/event_source/devices && exec "$@"' "$d" \
		env PERF_CPUID="$cpuid" "$@"
}

if ! command -v perf >/dev/null || ! perf version >/dev/null 2>&1; then
	skip "perf loads the exports" "perf not installed (Debian linux-perf)"
else
	for fx in zen3:AuthenticAMD-25-1-0 skx:GenuineIntel-6-55-4; do
		fx_name=${fx%%:*} cpuid=${fx#*:}
		export_fixture "$fx_name"
		n=0 bad=""
		while read -r line; do
			ev=$(sed -n "s/^perf stat -e '\([^']*\)'.*/\1/p" <<<"$line")
			[ -n "$ev" ] || continue
			n=$((n + 1))
			case $ev in amd_df/* | uncore_* | amd_umc* | amd_l3/*) continue ;; esac # PMUs not faked here
			fake_pmu "$cpuid" perf stat -e "$ev" true >"$TMP/perf.out" 2>&1
			grep -q "event syntax error" "$TMP/perf.out" && bad="$bad $ev"
		done <"$TMP/$fx_name/perf/perf-stat.txt"
		check "$fx_name: perf-stat.txt has a command line per metric" test "$n" -ge 5
		check "$fx_name: perf (PERF_CPUID=$cpuid) parses every exported event${bad:+ (not:$bad)}" test -z "$bad"
		fake_pmu "$cpuid" perf list --details >"$TMP/perf-list.txt" 2>/dev/null
		named=$(python3 "$TOP/tests/tools/check_metrics.py" perf "$TMP/$fx_name/perf/metrics.json" --names |
			grep -v '/' | grep '\.' | sort -u)
		missing=$(for w in $named; do grep -qx "  $w *" "$TMP/perf-list.txt" || echo "$w"; done)
		check "$fx_name: each named event of metrics.json is in perf's own table${missing:+ (not: $missing)}" \
			test -n "$named" -a -z "$missing"
	done
	check "zen3: the fills of six umasks (0x5f) go raw: perf names only 0xff" \
		grep -q "cpu@event\\\\\\\\=0x44\\\\\\\\,umask\\\\\\\\=0x5f@" "$TMP/zen3/perf/metrics.json"
	check "zen3: the DF metric is per package with upstream's group constraint" \
		python3 -c 'import json,sys
m = [x for x in json.load(open(sys.argv[1])) if "amd_df" in x["MetricExpr"]]
sys.exit(not m or any(x.get("PerPkg") != "1" or x.get("MetricConstraint") != "NO_GROUP_EVENTS" for x in m))' \
		"$TMP/zen3/perf/metrics.json"
fi

# --- LIKWID ---
# /dev is overlaid too, its changes kept in $TMP: a private mount namespace has the host's /dev (the same
# filesystem, a devtmpfs or a container's tmpfs), and a /dev/cpu made there for the tmpfs stayed on a host
# that had none.
likwid_on() { # TOPO CMD...: CMD with LIKWID's topology file TOPO and fake MSR files
	local up=$TMP/etc-up work=$TMP/etc-work
	rm -rf "$up" "$work" "$TMP/dev-up" "$TMP/dev-work" && mkdir -p "$up" "$work" "$TMP/dev-up" "$TMP/dev-work"
	cp "$1" "$up/likwid_topo.cfg"
	shift
	unshare -m sh -c 'w=$1 d=$2 && shift 2 && mount -t overlay overlay -o "lowerdir=/etc,upperdir=$0,workdir=$w" /etc &&
		mount -t overlay overlay -o "lowerdir=/dev,upperdir=$d-up,workdir=$d-work" /dev &&
		mkdir -p /dev/cpu && mount -t tmpfs none /dev/cpu &&
		for c in 0 1; do mkdir -p /dev/cpu/$c; truncate -s 1G /dev/cpu/$c/msr; done && exec "$@"' \
		"$up" "$work" "$TMP/dev" env HOME="$TMP/home" "$@"
}

if ! command -v likwid-perfctr >/dev/null || ! command -v likwid-genTopoCfg >/dev/null; then
	skip "LIKWID loads the exports" "likwid not installed (Debian likwid)"
elif ! likwid-genTopoCfg -o "$TMP/topo.cfg" >/dev/null 2>&1; then
	skip "LIKWID loads the exports" "likwid-genTopoCfg could not write a topology file"
else
	# Zen 3: family 0x19 model 0x01; Skylake-SP: family 6 model 0x55 (Intel, 4 general counters)
	sed -e 's/^cpuid_info family = .*/cpuid_info family = 25/' -e 's/^cpuid_info model = .*/cpuid_info model = 1/' \
		-e 's/^cpuid_info isIntel = .*/cpuid_info isIntel = 0/' "$TMP/topo.cfg" >"$TMP/zen3.topo"
	sed -e 's/^cpuid_info family = .*/cpuid_info family = 6/' -e 's/^cpuid_info model = .*/cpuid_info model = 85/' \
		-e 's/^cpuid_info isIntel = .*/cpuid_info isIntel = 1/' \
		-e 's/^cpuid_info perf_num_ctr = .*/cpuid_info perf_num_ctr = 4/' "$TMP/topo.cfg" >"$TMP/skx.topo"
	# A host without /dev/cpu, faked: /dev overlaid with its cpu whited out (a 0:0 device in the upper layer),
	# where a change the fake MSR files made to the host's /dev would show in that upper layer
	no_dev_cpu() {
		local n=$TMP/no-dev-cpu
		rm -rf "$n" && mkdir -p "$n/up" "$n/work" && mknod "$n/up/cpu" c 0 0 &&
			unshare -m bash -c "$(declare -f likwid_on)"'
				TMP=$1 && mount -t overlay overlay -o "lowerdir=/dev,upperdir=$2/up,workdir=$2/work" /dev &&
				test ! -e /dev/cpu && likwid_on "$TMP/zen3.topo" test -f /dev/cpu/0/msr' bash "$TMP" "$n" &&
			test -c "$n/up/cpu" -a "$(ls -A "$n/up")" = cpu
	}
	check "the fake MSR files leave no /dev/cpu behind on a host without one" no_dev_cpu
	for fx in zen3:zen3 skx:skylakeX; do
		fx_name=${fx%%:*} dir=${fx#*:}
		[ -d "$TMP/$fx_name" ] || export_fixture "$fx_name"
		rm -rf "$TMP/home" && mkdir -p "$TMP/home/.likwid/groups"
		cp -r "$TMP/$fx_name/likwid/$dir" "$TMP/home/.likwid/groups/"
		groups=$(cd "$TMP/$fx_name/likwid/$dir" && ls | sed 's/\.txt$//')
		likwid_on "$TMP/$fx_name.topo" likwid-perfctr -a >"$TMP/lw-a.out" 2>&1
		missing=$(for g in $groups; do grep -qw "$g" "$TMP/lw-a.out" || echo "$g"; done)
		check "$fx_name: likwid-perfctr -a lists the $(wc -w <<<"$groups") exported groups${missing:+ (not: $missing)}" \
			test -n "$groups" -a -z "$missing"
		g=$(head -1 <<<"$groups")
		check "$fx_name: likwid-perfctr -H -g $g prints its formulas" \
			sh -c "$(declare -f likwid_on); TMP='$TMP'; likwid_on '$TMP/$fx_name.topo' likwid-perfctr -H -g $g 2>&1 | grep -q Formulas"
	done
	bad=""
	for g in $(cd "$TMP/zen3/likwid/zen3" && ls | sed 's/\.txt$//'); do
		rm -rf "$TMP/home" && mkdir -p "$TMP/home/.likwid/groups" && cp -r "$TMP/zen3/likwid/zen3" "$TMP/home/.likwid/groups/"
		# `sleep 0.2`, not `true`: likwid-perfctr waits for its child in a 30 s sleep that the child's
		# SIGCHLD cuts short; a child that exits before that sleep begins costs the whole 30 s (4 of the 7
		# groups in one run of this suite, which took 135 s of a CI run)
		likwid_on "$TMP/zen3.topo" timeout 300 likwid-perfctr -M 0 -C 0 -g "$g" sleep 0.2 >"$TMP/lw-run.out" 2>&1
		if grep -qE "not found|ERROR" "$TMP/lw-run.out" || ! grep -q "Runtime (RDTSC)" "$TMP/lw-run.out"; then
			bad="$bad $g"
			tail -5 "$TMP/lw-run.out" | sed "s/^/# $g: /"
		fi
	done
	check "zen3: every exported group runs in likwid-perfctr (fake MSR files)${bad:+ (failed:$bad)}" test -z "$bad"
	# LIKWID programs a core counter for user mode alone unless told KERNEL. The fixture records no level (its
	# results predate domain=), so its groups keep the plain counter; the same events recorded as counted in
	# user and kernel mode set the OS bit (17) of the counter's control register too, as LIKWID's debug output
	# shows it written (0x10143 before: user only)
	mkdir -p "$TMP/zen3-uk" && cp "$TOP/tests/tools/export_zen3/machine.json" "$TMP/zen3-uk/"
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for e in d["events"]:
    if "component=perf_event," in e["encoding"] + ",":
        e["encoding"] += ",domain=user+kernel"
json.dump(d, open(sys.argv[2], "w"))' "$TOP/tests/tools/export_zen3/events.json" "$TMP/zen3-uk/events.json"
	"$PMUCHECK" export "$TMP/zen3-uk" --format likwid --out "$TMP/zen3-uk/likwid" >/dev/null 2>&1
	g=$(cd "$TMP/zen3-uk/likwid/zen3" && grep -l '^PMC0:KERNEL' -- *.txt | head -1 | sed 's/\.txt$//')
	rm -rf "$TMP/home" && mkdir -p "$TMP/home/.likwid/groups" && cp -r "$TMP/zen3-uk/likwid/zen3" "$TMP/home/.likwid/groups/"
	likwid_on "$TMP/zen3.topo" timeout 300 likwid-perfctr -V 3 -M 0 -C 0 -g "$g" sleep 0.2 >"$TMP/lw-v.out" 2>&1
	flags=$(sed -n 's/.*SETUP_PMC.*Flags: *\(0x[0-9A-Fa-f]*\).*/\1/p' "$TMP/lw-v.out" | head -1)
	check "zen3: LIKWID counts the core group '$g' in user and kernel mode, as validated (control ${flags:-not shown})" \
		test -n "$g" -a -n "$flags" -a "$((${flags:-0} >> 17 & 1))" -eq 1
	skip "skx: LIKWID group runs" "LIKWID 5.2.2 opens the Skylake-SP uncore PCI devices first; this VM has none"
fi

# --- PAPI ---
if ! command -v papi_avail >/dev/null || ! command -v papi_command_line >/dev/null; then
	skip "PAPI loads the exports" "papi-tools not installed"
else
	for fx_name in zen3 skx; do
		[ -d "$TMP/$fx_name" ] || export_fixture "$fx_name"
		f=$TMP/$fx_name/papi/papi_user_events.csv
		check "$fx_name: the user-events file says how to load it" grep -q "PAPI_USER_EVENTS_FILE=" "$f"
		check "$fx_name: events PAPI cannot take are listed, not dropped" grep -q "^# Not exported" "$f"
	done
	# PAPI's own tables for each fixture's CPU (libpfm4 forced to it, which enables the perf_event
	# component here): every exported event loads and resolves to its native event, but the perf::
	# software and the uncore ones, whose PMUs libpfm4 leaves out when forced to one. Loading only: a
	# forced table counts nothing on another CPU.
	for fx in zen3:amd64_fam19h_zen3 skx:skx; do
		fx_name=${fx%%:*} pmu=${fx#*:}
		f=$TMP/$fx_name/papi/papi_user_events.csv
		want=$(grep '^PRESET' "$f" | grep -vc '::')
		got=$(LIBPFM_FORCE_PMU=$pmu PAPI_USER_EVENTS_FILE=$f papi_avail 2>&1 | grep -c '^PMUCHECK_')
		check "$fx_name: PAPI ($pmu tables) loads the $want user events of its core PMU" test "$got" -eq "$want"
		native=$(grep '^PRESET,PMUCHECK_LOADS,' "$f" | cut -d, -f4)
		LIBPFM_FORCE_PMU=$pmu PAPI_USER_EVENTS_FILE=$f papi_avail -e PMUCHECK_LOADS >"$TMP/papi-e.out" 2>&1
		check "$fx_name: PMUCHECK_LOADS resolves to $native" grep -qF "|$native|" "$TMP/papi-e.out"
	done
	# software events stand in for hardware ones: page-faults is counted here
	S=$TMP/soft
	mkdir -p "$S"
	python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
d["events"] = [e for e in d["events"] if e["event"] == "page-faults"]
json.dump(d, open(sys.argv[2], "w"))' "$TOP/tests/tools/export_zen3/events.json" "$S/events.json"
	why=$(papi_component_avail 2>&1 | grep -A1 "^Name: *perf_event " | sed -n 's/.*Disabled: *//p')
	# PAPI loads a user-events file's events only where its CPU line names this machine's core PMU: the
	# fixture's Zen 3 PMU swapped for the ones PAPI lists here (a Zen 1 guest's amd64_fam17h_zen1)
	pmus=$(papi_component_avail 2>&1 |
		sed -n '/^Name: *perf_event /,/^Name:/s/.*PMUs supported: *//p' | head -1)
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
if sys.argv[3]:
    d["counters"]["availability"]["papi"]["components"][0]["pmus"] = sys.argv[3].split(", ")
json.dump(d, open(sys.argv[2], "w"))' "$TOP/tests/tools/export_zen3/machine.json" "$S/machine.json" "$pmus"
	check "the page-faults events export for PAPI" "$PMUCHECK" export "$S" --format papi --out "$S/papi"
	if [ -n "$why" ]; then
		# LIBPFM_FORCE_PMU would enable the component but leaves out libpfm4's perf:: PMU as well. The reason
		# is PAPI's own: libpfm4 not knowing the CPU (the Zen 5 guest), or no PMU at all (an Emerald Rapids
		# guest whose CPUID leaf 0xA is empty: "no default PMU found")
		skip "PAPI loads the user-events file" "PAPI's perf_event component is disabled here ($why), so \
PAPI loads no user event at all"
	else
		cpu=$(sed -n 's/^CPU,//p' "$S/papi/papi_user_events.csv")
		check "... for a core PMU PAPI lists here ($cpu of $pmus)" bash -c 'case ", $1, " in
			*", $0, "*) [ "$0" != perf ] && [ "$0" != perf_raw ] ;;
			*) false ;; esac' "$cpu" "$pmus"
		PAPI_USER_EVENTS_FILE=$S/papi/papi_user_events.csv papi_avail -e PMUCHECK_PAGES >"$TMP/papi.out" 2>&1
		check "papi_avail resolves the exported user event" grep -q "perf::PAGE-FAULTS" "$TMP/papi.out"
		PAPI_USER_EVENTS_FILE=$S/papi/papi_user_events.csv papi_command_line PMUCHECK_PAGES >"$TMP/papi.out" 2>&1
		check "papi_command_line counts it (page faults: never 0)" grep -qE "PMUCHECK_PAGES :[[:space:]]+[1-9][0-9]*" "$TMP/papi.out"
	fi
fi
