#!/bin/bash
# bad_inputs.sh — the one table of bad input: CLI options of every command, malformed config files,
# event specs, malformed raw.csv and machine.json. Each row must exit 2 with a message naming the
# option, file and line, or event at fault, and write nothing: the whole working tree (results roots,
# results directories, the config and raw files, the fake MSR files and the prefetcher state) is
# compared before and after, names, sizes and modification times.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../pf_fake.sh"

W=$TMP/w
mkdir -p "$W/exists" "$W/empty-dir"
# Zen 5 as on the development machines, with fake MSRs in the tree: the same messages on any host,
# and a prefetcher change would show as a changed file.
make_fake "$W/msr" AuthenticAMD:0x1a:0x11 0xc0000108 2

# A results directory from a real run (tests/fuzz/seeds-raw), and broken copies of it.
good=$TOP/tests/fuzz/seeds-raw
results() { # results NAME: a copy of the good directory to break
	mkdir -p "$W/$1"
	cp "$good/run.csv" "$W/$1/raw.csv"
	cp "$good/machine.json" "$W/$1/machine.json"
}
for d in good no-column bad-count bad-status unclosed stray-quote no-threads short-row truncated \
	empty-raw no-raw bad-json format-2 no-levels no-machine stopped-bad-json bad-candidates name-break; do
	results "$d"
done
sed -i '1s/,count,/,kount,/' "$W/no-column/raw.csv"
sed -i '3s/,thread,0,/,thread,x,/' "$W/bad-count/raw.csv"
sed -i '4s/,ok,,$/,bogus,,/' "$W/bad-status/raw.csv"
sed -i '2s/,load,load.gpr,/,"load,load.gpr,/' "$W/unclosed/raw.csv"
sed -i '2s/,load.gpr,/,lo"ad"gpr,/' "$W/stray-quote/raw.csv"
# a line break in a quoted name: the figures' gnuplot scripts would have run the line after it as a command
sed -i '2s/,load\.gpr,/,"load.gpr\n!touch pwned\n#",/' "$W/name-break/raw.csv"
sed -i '3s/,reps,1,0,local,/,reps,0,0,local,/' "$W/no-threads/raw.csv"
sed -i '4s/,[^,]*,$/,/' "$W/short-row/raw.csv"
head -c -1 "$good/run.csv" >"$W/truncated/raw.csv"
: >"$W/empty-raw/raw.csv"
rm "$W/no-raw/raw.csv" "$W/no-machine/machine.json"
sed -i '0,/{/s/{/{ "format": 1,/' "$W/bad-json/machine.json"
cp "$W/bad-json/machine.json" "$W/stopped-bad-json/" && touch "$W/stopped-bad-json/PARTIAL"
# stopped before its first point, whose recorded arguments no run records: another --resume (which would
# measure a default run into it), or --help before a short run's options (which would measure those)
stopped() { # stopped NAME ARG...: a run stopped before raw.csv, machine.json's argv "run ARG..."
	mkdir -p "$W/$1" && touch "$W/$1/PARTIAL"
	python3 - "$good/machine.json" "$W/$1/machine.json" "${@:2}" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["argv"], m["finished_utc"] = ["run"] + sys.argv[3:], None
json.dump(m, open(sys.argv[2], "w"))
PY
}
stopped resumes --resume elsewhere
stopped helps --quick --kernels touch --threads 1 --reported-levels --sizes 64k --help
# json_edit FILE STATEMENT: FILE's JSON as the Python STATEMENT leaves it (m)
json_edit() {
	python3 - "$1" "$2" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(m, open(sys.argv[1], "w"))
PY
}
# stopped short runs, each with one fault in machine.json: another format; a measured level size that is
# no size (read as "not measured", the resumed run would plan its points from other sizes); no word of
# whether it finished (finished_utc: null while a run goes on, its end once it finished)
SHORT=(--quick --kernels touch --threads 1 --reported-levels --sizes 64k)
for s in format-2:'m["format"] = 2' measured-text:'m["levels"]["measured"] = {"L2": "abc"}' \
	measured-negative:'m["levels"]["measured"] = {"L2": -5}' no-finished:'del m["finished_utc"]' \
	finished-number:'m["finished_utc"] = 0'; do
	stopped "stopped-${s%%:*}" "${SHORT[@]}" && json_edit "$W/stopped-${s%%:*}/machine.json" "${s#*:}"
done
# a stopped short run whose raw.csv ends in a line that is no row: read as point 0 once, its points measured
# again after it (a real run's raw.csv, this pmucheck's columns)
"$PMUCHECK" run "${SHORT[@]}" "${ONE_STATE[@]}" --no-progress --out "$TMP/short" >/dev/null 2>&1
stopped stopped-garbage "${SHORT[@]}" && cp "$TMP/short/raw.csv" "$W/stopped-garbage/raw.csv" &&
	echo garbage >>"$W/stopped-garbage/raw.csv"
garbage_line=$(wc -l <"$W/stopped-garbage/raw.csv")
# ... and one whose second line has a field too many (analyze refuses it; a resume kept it, measured on and
# left a directory analyze still refused)
stopped stopped-fields "${SHORT[@]}" && sed '2s/$/,x/' "$TMP/short/raw.csv" >"$W/stopped-fields/raw.csv"
for s in measured-text:'{"L2": "abc"}' measured-negative:'{"L2": -5}' measured-list:'[1, 2]' \
	measured-fraction:'{"L2": 150000.0}' measured-byte:'{"L1": 1}'; do
	results "${s%%:*}" && json_edit "$W/${s%%:*}/machine.json" "m['levels']['measured'] = ${s#*:}"
done
# reported level sizes that are no size, or no L1 (analyze would label every point from them)
for s in reported-text:'m["levels"]["reported"]["L2"] = "1M"' reported-negative:'m["levels"]["reported"]["L3"] = -1' \
	reported-no-l1:'del m["levels"]["reported"]["L1"]' reported-huge:'m["levels"]["reported"]["L1"] = 1e300'; do
	results "${s%%:*}" && json_edit "$W/${s%%:*}/machine.json" "${s#*:}"
done
# machine.json a directory, or empty, or a link to itself
results dir-json && rm "$W/dir-json/machine.json" && mkdir "$W/dir-json/machine.json"
results loop-json && rm "$W/loop-json/machine.json" && ln -s machine.json "$W/loop-json/machine.json"
# this machine's run whose reported L1 is written as a real, which --levels-from read as 0 KiB (taken now, by
# the rule the analysis reads it by), and one whose L1 is named L9
mkdir -p "$W/lf-real" "$W/lf-renamed" && cp "$TMP/short/machine.json" "$W/lf-real/" &&
	cp "$TMP/short/machine.json" "$W/lf-renamed/" &&
	json_edit "$W/lf-real/machine.json" 'm["levels"]["reported"]["L1"] = float(m["levels"]["reported"]["L1"])' &&
	json_edit "$W/lf-renamed/machine.json" 'r = m["levels"]["reported"]; r["L9"] = r.pop("L1")'
results empty-json && : >"$W/empty-json/machine.json"
cp -r "$W/dir-json" "$W/stopped-dir-json" && touch "$W/stopped-dir-json/PARTIAL"
cp -r "$W/empty-json" "$W/stopped-empty-json" && touch "$W/stopped-empty-json/PARTIAL"
# a discovery's candidates with a key given twice: refused, not taken for no discovery
echo '{"candidates": [], "candidates": []}' >"$W/bad-candidates/candidates.json"
# an analysed directory whose events.json gives a key twice, for the report
results twice-events && "$PMUCHECK" analyze -q "$W/twice-events" >/dev/null &&
	sed -i '0,/{/s/{/{ "format": 1,/' "$W/twice-events/events.json"
# analysed directories whose events.json is of another format, or no object, for merge
for s in ev-format-2:'m["format"] = 2' ev-list:'m = [m]'; do
	results "${s%%:*}" && "$PMUCHECK" analyze -q "$W/${s%%:*}" >/dev/null &&
		json_edit "$W/${s%%:*}/events.json" "${s#*:}"
done
# analysed directories whose events.json is a directory, or empty (report, export, merge); and a discovery's
# candidates.json a directory, or empty (analyze)
for d in ev-dir ev-empty; do
	results $d && "$PMUCHECK" analyze -q "$W/$d" >/dev/null && rm "$W/$d/events.json"
done
mkdir "$W/ev-dir/events.json" && : >"$W/ev-empty/events.json"
results cand-dir && mkdir "$W/cand-dir/candidates.json"
results cand-empty && : >"$W/cand-empty/candidates.json"
sed -i 's/"format": 1/"format": 2/' "$W/format-2/machine.json"
sed -i 's/"reported":/"reported_not":/' "$W/no-levels/machine.json"

# Config files: a valid one, then each with one fault; the fault is on line 11 unless said.
config() { # config NAME TEXT: the valid config plus TEXT
	printf '[arch]\nname = t\ntitle = Test\nvendor = AuthenticAMD\nmatch = 0x1a:*\nprefetch = amd-c0000108\n\n[event A]\nspec = page-faults\nexpect = pages * 1\n%s\n' \
		"$2" >"$W/$1.ini"
}
config good ""
config level "levels = L9"
config scope "scope = galaxy"
config key "nokey = 1"
config twice "expect = pages * 2"
config quantity "[event B]
spec = task-clock
expect = furlongs * 1"
config scale "[event B]
spec = task-clock
expect = pages * -1"
config section "[bogus]
x = 1"
config empty-section "[event B]"
config run-name "[run r]
kernels = touch"
printf '[event A]\nspec = page-faults\nexpect = pages * 1\n' >"$W/no-arch.ini"
: >"$W/empty.ini"
printf '[arch]\nname = t\nvendor = AuthenticAMD\nmatch = 0x1a:*\n' >"$W/no-title.ini"

snapshot() { find "$W" -printf '%p %y %s %T@ %m\n' | sort; }

n=0
# row FRAGMENT ARGS...: pmucheck ARGS (in $W) exits 2, says FRAGMENT, and changes nothing.
row() {
	local want=$1 rc why=
	shift
	n=$((n + 1))
	snapshot >"$TMP/before"
	(cd "$W" && "$PMUCHECK" "$@") >"$TMP/out" 2>&1
	rc=$?
	snapshot >"$TMP/after"
	if [ $rc -ne 2 ]; then
		why="exit $rc"
	elif ! grep -qF -- "$want" "$TMP/out"; then
		why="no '$want' in the message"
	elif ! cmp -s "$TMP/before" "$TMP/after"; then
		why="wrote: $(diff "$TMP/before" "$TMP/after" | grep '^[<>]' | head -3 | tr '\n' ' ')"
	fi
	if [ -z "$why" ]; then ok "bad input $n: pmucheck $*"; else
		notok "bad input $n: pmucheck $*" "$why"; sed 's/^/#   /' "$TMP/out" | head -5; fi
}

# A short valid run; each row adds one bad option to it.
RUN=(run --quick --kernels touch --threads 1 --reported-levels)
# ... less its --threads, or its --kernels, for the rows of those (a list option given twice is refused)
RUN_T=(run --quick --kernels touch --reported-levels)
RUN_K=(run --quick --threads 1 --reported-levels)

# The table's inputs must be bad for the stated reason only: the good forms succeed.
expect_status "control: the run line with the valid config measures" 0 \
	"$PMUCHECK" "${RUN[@]}" "${ONE_STATE[@]}" --config "$W/good.ini" --out "$TMP/control"
check "control: analyze accepts the good results directory" "$PMUCHECK" analyze -q "$W/good"
rm -f "$W"/good/events.* "$W"/good/peaks.* "$W"/good/stalls.md

# --- CLI options: the program and each command ---
row "unknown command 'nosuch'" nosuch
row "unknown option '--bogus'" --bogus
row "pmucheck help: unknown command 'nosuch'" help nosuch
row "pmucheck help: unexpected argument 'extra' (one command at most)" help run extra
row "pmucheck version: unexpected argument 'extra'" version extra
row "--sizes: '12q' has an unknown unit" "${RUN[@]}" --sizes 12q
row "--sizes: a size of 0 bytes measures nothing" "${RUN[@]}" --sizes 0
row "--sizes: '1.5k' has a fraction" "${RUN[@]}" --sizes 1.5k
row "--sizes: '1.5.2k' has a fraction" "${RUN[@]}" --sizes 1.5.2k
row "--sizes: 16384 bytes is smaller than one block of touch.gpr" "${RUN[@]}" --sizes 16k
row "--threads: 0 threads is out of range" "${RUN_T[@]}" --threads 0
row "--threads: 'abc' is not a non-negative number" "${RUN_T[@]}" --threads abc
row "--kernels: unknown kernel 'nosuch'" "${RUN_K[@]}" --kernels nosuch
row "--kernels: unknown kernel 'load.nosuch'" "${RUN_K[@]}" --kernels load.nosuch
row "--placement: NUMA node '99' does not exist" "${RUN[@]}" --placement node:99
row "--placement: 'sideways' is not a placement" "${RUN[@]}" --placement sideways
row "--prefetch: 'sideways' is not a prefetcher state" "${RUN[@]}" --prefetch sideways
row "--prefetch: unknown prefetcher 'l3-magic'" "${RUN[@]}" --prefetch off:l3-magic
row "--prefetch: empty item at position 2 of 'on,,off'" "${RUN[@]}" --prefetch on,,off
row "--prefetch: empty item at position 2 of 'on,'" "${RUN[@]}" --prefetch on,
row "--reps: 0 is out of range" "${RUN[@]}" --reps 0
row "--min-time: 0 ms is out of range" "${RUN[@]}" --min-time 0
row "--min-time: 'x' is not a non-negative number" "${RUN[@]}" --min-time x
row "--time-budget: 'x' is not a non-negative number" "${RUN[@]}" --time-budget x
row "--time-budget: 0 s is out of range" "${RUN[@]}" --time-budget 0
row "--time-budget: '-5' is not a non-negative number" "${RUN[@]}" --time-budget -5
row "--time-budget: 9999999 s is out of range" "${RUN[@]}" --time-budget 9999999
row "option '--time-budget' needs a value" "${RUN[@]}" --time-budget
row "--seed: '-1' is not a non-negative number" "${RUN[@]}" --seed -1
row "--args: 'x' is not a non-negative number" "${RUN[@]}" --args x
row "--cpus: CPU 100000 is not in this machine" "${RUN[@]}" --cpus 100000
row "--cpus: range '3-1' runs backwards" "${RUN[@]}" --cpus 3-1
row "--preset: no preset 'nosuch'" run --preset nosuch
# A step's value the plan refuses is the file's: named by its file and the line of its [run] section, where
# the message named only the step and run's option (--args), which the command line did not give.
cp -r "$TOP/configs" "$TMP/badstep"
sed -i '/^\[run larysch2016.split\]/,/^\[/ s/^args = 0\.\.63$/args = 0..64/' "$TMP/badstep/presets.ini"
at=$(grep -n '^\[run larysch2016.split\]' "$TMP/badstep/presets.ini" | cut -d: -f1)
PMUCHECK_CONFIG_DIR=$TMP/badstep row \
	"$TMP/badstep/presets.ini:$at: preset step larysch2016.split: --args: offset 64 is out of range" \
	run --preset larysch2016 --reported-levels --dry-run
row "--out: cannot create results directory exists: File exists" "${RUN[@]}" --out exists
row "--resume: nowhere is not a directory" run --resume nowhere
row "--resume: nowhere is not a directory" run --resume=nowhere
row "--resume takes no other options" run --resume exists --quick
row "--resume: stopped-bad-json/machine.json:167:10: duplicate object key" run --resume stopped-bad-json
row "--resume: stopped-dir-json/machine.json is a directory, not a file" run --resume stopped-dir-json
row "--resume: stopped-empty-json/machine.json: empty file" run --resume stopped-empty-json
row "--resume: stopped-format-2/machine.json: format 2, this pmucheck reads format 1" run --resume stopped-format-2
row "--resume: stopped-measured-text/machine.json: 'levels.measured.L2' is not a size in bytes" \
	run --resume stopped-measured-text
row "--resume: stopped-measured-negative/machine.json: 'levels.measured.L2' is not a size in bytes" \
	run --resume stopped-measured-negative
row "--resume: stopped-no-finished/machine.json: 'finished_utc' is missing" run --resume stopped-no-finished
row "--resume: the run in good finished at 2026-11-21T10:47:29Z; nothing to resume" run --resume good
row "--resume: stopped-finished-number/machine.json: 'finished_utc' is neither null (a stopped run) nor a time" \
	run --resume stopped-finished-number
row "--resume: resumes/machine.json: its arguments hold --resume" run --resume resumes
row "--resume: stopped-garbage/raw.csv:$garbage_line: not a row of a run" run --resume stopped-garbage
row "--resume: stopped-fields/raw.csv:2: not a row of a run" run --resume stopped-fields
row "--resume: helps/machine.json: its arguments hold --help" run --resume helps
LF=(run --quick --kernels touch --threads 1 --levels-from)
row "--levels-from: bad-json/machine.json:167:10: duplicate object key" "${LF[@]}" bad-json
row "--levels-from: nowhere/machine.json: No such file or directory" "${LF[@]}" nowhere
# not a directory, or a path too long to hold: exit 1 once, and the long one's message lost its reason
row "--levels-from: good/raw.csv/machine.json: Not a directory" "${LF[@]}" good/raw.csv
row "...: the path is too long" "${LF[@]}" "$(printf 'd%.0s' {1..5000})"
row "--levels-from: dir-json/machine.json is a directory, not a file" "${LF[@]}" dir-json
row "--levels-from: empty-json/machine.json: empty file" "${LF[@]}" empty-json
row "--levels-from: format-2/machine.json: format 2, this pmucheck reads format 1" "${LF[@]}" format-2
row "--levels-from: measured-text/machine.json: 'levels.measured.L2' is not a size in bytes" "${LF[@]}" measured-text
row "--levels-from: measured-negative/machine.json: 'levels.measured.L2' is not a size in bytes" \
	"${LF[@]}" measured-negative
row "--levels-from: measured-list/machine.json: 'levels.measured' is not an object" "${LF[@]}" measured-list
row "--levels-from: lf-renamed/machine.json: its L1 is missing" "${LF[@]}" lf-renamed
check "--levels-from takes a reported size written as a real (49152.0), as analyze does" \
	"$PMUCHECK" "${LF[@]}" "$W/lf-real" --dry-run
row "loop-json/machine.json: Too many levels of symbolic links" analyze loop-json
row "--levels-from: measured-fraction/machine.json: 'levels.measured.L2' is not a size in bytes" "${LF[@]}" \
	measured-fraction
row "unexpected argument 'extra'" "${RUN[@]}" extra
row "--results: an empty path" "${RUN[@]}" --results ''
row "--kernels: given twice (one comma-separated list holds them all)" "${RUN[@]}" -k touch
row "--threads: given twice" "${RUN[@]}" --threads 1
row "--prefetch: given twice" "${RUN[@]}" --prefetch on --prefetch off
row "--events: given twice" "${RUN[@]}" --events page-faults --events task-clock
row "--cpus: given twice" "${RUN[@]}" --cpus "$FIRST_CPU" --cpus "$FIRST_CPU"
row "--sizes: given twice" "${RUN[@]}" --sizes 1M --sizes 2M
row "--sizes: '1024k' is listed twice" "${RUN[@]}" --sizes 1M,1024k
row "--sizes: empty item at position 2 of '1M,,'" "${RUN[@]}" --sizes 1M,,
row "--sizes: empty item at position 1 of ',1M'" "${RUN[@]}" --sizes ,1M
row "--threads: '1' is listed twice" "${RUN_T[@]}" --threads 1,1
row "--placement: 'local' is listed twice" "${RUN[@]}" --placement local,local
row "--args: '3' is listed twice" "${RUN[@]}" --args 3,3
row "--args: no kernel of the run takes an argument (chase, nopread, splitread do)" "${RUN_T[@]}" --threads 1 --args 5
row "--kernels: 'touch.gpr' is listed twice" "${RUN_K[@]}" -k touch.gpr,touch.gpr
row "--kernels: 'touch.gpr' is listed twice (family 'touch' has it)" "${RUN_K[@]}" -k touch,touch.gpr
row "--kernels: empty item at position 2 of 'touch,'" "${RUN_K[@]}" -k touch,
row "unknown option '--bogus'" "${RUN[@]}" --bogus
# the option at fault, not the word before it (an unknown letter inside a cluster), in one message style
row "pmucheck run: unknown option '-Z'" "${RUN[@]}" -Zq
# ... also as the first word: run and all parse twice (--help before the machine is read), and the second
# parse began inside "-Zn" where the first stopped, at n, and made a dry run of it
row "pmucheck run: unknown option '-Z'" run -Zn
row "pmucheck all: unknown option '-Z'" all -Zn
row "pmucheck run: option '--quick' takes no value" run --quick=1
# an abbreviation two options begin with is ambiguous, not unknown: it was said to be unknown
row "pmucheck run: option '--pre' is ambiguous: --prefetch, --preset" "${RUN[@]}" --pre on
row "pmucheck discover: option '--no' is ambiguous: --no-libpfm, --no-sysfs, --no-progress" discover -n --no
row "pmucheck analyze: unknown option '-Z'" analyze -Zq good
row "pmucheck prefetch: unknown option '-Z'" prefetch status -Zh
row "pmucheck discover: unknown option '-Z'" discover -Zn
row "pmucheck export: unknown option '--bogus'" export --bogus good --format perf
row "pmucheck export: option '--format' needs a value" export good --format
row "pmucheck list: unknown option '--bogus'" list --bogus kernels
row "pmucheck info: option '--json' takes no value" info --json=1
row "pmucheck merge: unknown option '-Z'" merge -Zq good
row "pmucheck merge: option '-o' needs a value" merge good -o
row "pmucheck fleet: unknown option '-Z'" fleet -Zw
row "expected one results directory" analyze
row "expected one results directory" analyze good exists
row "nowhere: not a results directory" analyze nowhere
row "unknown option '--bogus'" analyze --bogus good
row "pmucheck list: what to list: kernels or events" list
row "pmucheck list: unexpected argument 'nosuch' (kernels, or events [NAME...])" list nosuch
row "pmucheck list: unexpected argument 'extra'" list kernels extra
row "unknown option '--bogus'" info --bogus
row "unexpected argument 'extra'" info extra
row "unknown action 'of' (status, off, on, restore)" prefetch of
row "unknown prefetcher 'l3-magic' for AMD Zen 3/4/5" prefetch off l3-magic
row "--cpus: range '3-1' runs backwards" prefetch off --cpus 3-1
row "--cpus: CPU 100000 is not in this machine" prefetch status --cpus 100000
row "--cpus: CPU 0 is listed twice" prefetch status --cpus 0,0
row "--cpus: '0-1x' is not a CPU list" "${RUN[@]}" --cpus 0-1x
row "--cpus: '99999999999' is not a CPU list" "${RUN[@]}" --cpus 99999999999
row "--cpus: 'x' is not a CPU list" prefetch status --cpus x
# hwloc would read 010 as octal, CPU 8
row "--cpus: '010': a CPU number has no leading zero" prefetch off --cpus 010
row "--cpus: '0-01': a CPU number has no leading zero" "${RUN[@]}" --cpus 0-01
row "prefetch off: NAMES is empty" prefetch off ''
row "prefetch on: NAMES is empty" prefetch on ''
row "unknown option '--bogus'" prefetch --bogus
row "option '--cpus' needs a value" prefetch status --cpus
row "--sysfs nowhere: not a directory" discover --dry-run --no-libpfm --sysfs nowhere
# a tree one level too high (/sys/bus/event_source: devices/cpu/type) gave no candidate, and the run went on
mkdir -p "$TMP/event_source/devices/cpu" && echo 4 >"$TMP/event_source/devices/cpu/type"
row "--sysfs $TMP/event_source: no PMU in it" discover --dry-run --no-libpfm --sysfs "$TMP/event_source"
row "--sysfs and --no-sysfs: give one of them" discover --dry-run --no-sysfs --sysfs "$TMP/event_source/devices"
# discover's lists given twice, as run's
DISC=(discover --dry-run --no-libpfm --no-sysfs --add-events page-faults)
row "--pmu: given twice (one comma-separated list holds them all)" "${DISC[@]}" --pmu a --pmu b
row "--only: given twice" "${DISC[@]}" --only a --only=b
row "--add-events: given twice" "${DISC[@]}" --add-events task-clock
row "--kernels: given twice" "${DISC[@]}" -k touch -k load.gpr
row "--sizes: given twice" "${DISC[@]}" -s 64k --sizes 1M
# discover's dry run checks its results directory as run's does: it passed one that exists
row "--out: cannot create results directory exists: File exists" "${DISC[@]}" --out exists
row "--write /nonexistent/x.ini: cannot create it: No such file or directory" discover --dry-run --no-libpfm \
	--no-sysfs --add-events page-faults --write /nonexistent/x.ini
row "--write good/raw.csv/x.ini: cannot create it: Not a directory" discover --dry-run --no-libpfm \
	--no-sysfs --add-events page-faults --write good/raw.csv/x.ini
# an empty name, a dangling link (creating would follow it), a directory's name, a name over NAME_MAX: all
# passed the check once, measured, and failed only when the config was copied at the end
ln -sfn "$W/nowhere/x.ini" "$W/dangling.ini"
# what the run refuses when it makes its directory, its dry run refuses too: it passed an empty --results,
# and an --out or --results that is a link to nothing (mkdir finds the link, access and stat do not)
row "--results: an empty path" "${RUN[@]}" --dry-run --results ''
row "--out: cannot create results directory dangling.ini: File exists" "${RUN[@]}" --dry-run --out dangling.ini
row "--results: cannot create results directory 'dangling.ini': No such file or directory" "${RUN[@]}" --dry-run \
	--results dangling.ini
row "--write: an empty file name" discover --dry-run --no-libpfm --no-sysfs --add-events page-faults --write ''
row "--write dangling.ini: the file exists" discover --dry-run --no-libpfm --no-sysfs --add-events page-faults \
	--write dangling.ini
row "--write newdir/: names a directory, not a file" discover --dry-run --no-libpfm --no-sysfs \
	--add-events page-faults --write newdir/
row "cannot create it: File name too long" discover --dry-run --no-libpfm --no-sysfs --add-events page-faults \
	--write "$(printf 'x%.0s' {1..300}).ini"

# --- config files (--config) ---
row "--config: nowhere.ini: No such file or directory" "${RUN[@]}" --config nowhere.ini
row "--config: empty-dir is a directory, not a file" "${RUN[@]}" --config empty-dir
row "--config: /dev/null: empty file" "${RUN[@]}" --config /dev/null
row "--config: empty.ini: empty file" "${RUN[@]}" --config empty.ini
row "level.ini:11: levels: 'L9' is not one of" "${RUN[@]}" --config level.ini
row "scope.ini:11: scope: 'galaxy' is not core or socket" "${RUN[@]}" --config scope.ini
row "key.ini:11: [event A]: unknown key 'nokey'" "${RUN[@]}" --config key.ini
row "twice.ini:11: [event A]: key 'expect' given twice" "${RUN[@]}" --config twice.ini
row "quantity.ini:13: expect: 'furlongs' is not a quantity" "${RUN[@]}" --config quantity.ini
row "scale.ini:13: expect: scale '-1' is not a positive decimal number" "${RUN[@]}" --config scale.ini
row "section.ini:11: unknown section [bogus]" "${RUN[@]}" --config section.ini
row "empty-section.ini:11: section has no keys" "${RUN[@]}" --config empty-section.ini
row "run-name.ini:11: run name 'r' is not PRESET.STEP" "${RUN[@]}" --config run-name.ini
row "no-arch.ini:1: events need an [arch] section" "${RUN[@]}" --config no-arch.ini
row "no-title.ini:1: [arch]: missing required key 'title'" "${RUN[@]}" --config no-title.ini

# --- event specs (--events, list events) ---
row "event 'cpu/event=zz/': term 'event' needs a number, not 'zz'" "${RUN[@]}" --events cpu/event=zz/
row "event 'nosuchpmu/event=1/': unknown PMU 'nosuchpmu'" "${RUN[@]}" --events nosuchpmu/event=1/
row "event 'cpu/event=0x3c': perf syntax is pmu/term=value,.../ (missing the closing '/')" \
	"${RUN[@]}" --events cpu/event=0x3c
row "event 'cpu/event=1/umask=2/': perf syntax is pmu/term=value,.../ (one pair of '/')" \
	"${RUN[@]}" --events cpu/event=1/umask=2/
row "event 'cpu//': no terms between the '/'" "${RUN[@]}" --events cpu//
# a hybrid Intel CPU's kernel exposes cpu_core in sysfs, whose terms are then the ones known
if [ -d /sys/bus/event_source/devices/cpu_core ]; then
	row "event 'cpu_core/bogus=1/': PMU 'cpu_core' has no term or event 'bogus'" "${RUN[@]}" --events cpu_core/bogus=1/
else
	row "event 'cpu_core/bogus=1/': unknown term 'bogus' for a core PMU" "${RUN[@]}" --events cpu_core/bogus=1/
fi
row "event list 'page-faults,,task-clock': empty name at position 2" "${RUN[@]}" --events page-faults,,task-clock
row "event list '': empty name at position 1" "${RUN[@]}" --keep-going --events ''
row "NOT_A_PAPI_EVENT" "${RUN[@]}" --events NOT_A_PAPI_EVENT
row "sde:::nolib::nothing" "${RUN[@]}" --events sde:::nolib::nothing
row "event 'cpu/event=zz/': term 'event' needs a number" list events page-faults cpu/event=zz/

# --- results directories (analyze) ---
row "no-column/raw.csv:1: header lacks the column 'count'" analyze no-column
row "bad-count/raw.csv:3: column 'count': bad value 'x'" analyze bad-count
row "bad-status/raw.csv:4: column 'status': bad value 'bogus'" analyze bad-status
row "unclosed/raw.csv:2: " analyze unclosed
row "name-break/raw.csv:2: column 'variant': a control character (0x0a) in a name" analyze name-break
row "stray-quote/raw.csv:2: stray quote in an unquoted field" analyze stray-quote
row "no-threads/raw.csv:3: point, reps or threads out of range" analyze no-threads
row "short-row/raw.csv:4: " analyze short-row
row "truncated/raw.csv:5: truncated row (the file ends without a line end)" analyze truncated
row "empty-raw/raw.csv:1: empty file" analyze empty-raw
row "no-raw/raw.csv" analyze no-raw
row "bad-json/machine.json:" analyze bad-json
row "bad-candidates/candidates.json:1:" analyze bad-candidates
row "twice-events/events.json:2:9: duplicate object key" report twice-events
# report and export read events.json as merge does: another format's or a list refused by name
for c in "merge -o merged" report "export --format perf"; do
	# shellcheck disable=SC2086 # the command's words
	row "ev-format-2/events.json: format 2, this pmucheck reads format 1" $c ev-format-2
	# shellcheck disable=SC2086
	row "ev-list/events.json:1: expected a JSON object" $c ev-list
done
for d in ev-dir:" is a directory, not a file" ev-empty:": empty file"; do
	row "${d%%:*}/events.json${d#*:}" report "${d%%:*}"
	row "${d%%:*}/events.json${d#*:}" export "${d%%:*}" --format perf
	row "${d%%:*}/events.json${d#*:}" merge -o merged "${d%%:*}"
done
row "cand-dir/candidates.json is a directory, not a file" analyze cand-dir
row "cand-empty/candidates.json: empty file" analyze cand-empty
row "format-2/machine.json: format 2, this pmucheck reads format 1" analyze format-2
row "no-levels/machine.json: member 'levels.reported' is missing" analyze no-levels
row "no-machine/machine.json: No such file or directory" analyze no-machine
row "reported-text/machine.json: 'levels.reported.L2' is not a size in bytes" analyze reported-text
row "reported-negative/machine.json: 'levels.reported.L3' is not a size in bytes" analyze reported-negative
row "reported-huge/machine.json: 'levels.reported.L1' is not a size in bytes" analyze reported-huge
row "measured-byte/machine.json: 'levels.measured.L1' is not a size in bytes" analyze measured-byte
row "reported-no-l1/machine.json: 'levels.reported.L1' is missing" analyze reported-no-l1
row "dir-json/machine.json is a directory, not a file" analyze dir-json
row "empty-json/machine.json: empty file" analyze empty-json
# the measured sizes as run --resume and --levels-from read them (common/machine_json.c)
row "measured-text/machine.json: 'levels.measured.L2' is not a size in bytes" analyze measured-text
row "measured-negative/machine.json: 'levels.measured.L2' is not a size in bytes" analyze measured-negative
row "measured-list/machine.json: 'levels.measured' is not an object" analyze measured-list
row "measured-fraction/machine.json: 'levels.measured.L2' is not a size in bytes" analyze measured-fraction
# raw.csv a directory; a FIFO, which the reader must refuse rather than wait on (a copied results directory
# may hold one): timeout turns a wait into a failure instead of a hung suite
# a NUL byte in a row (a damaged file): said as such, not as a row of too few fields
results nul-raw && python3 -c 'import sys; p = sys.argv[1]; b = open(p, "rb").read().split(b"\n")
b[2] = b[2][:5] + b"\0" + b[2][5:]; open(p, "wb").write(b"\n".join(b))' "$W/nul-raw/raw.csv"
row "nul-raw/raw.csv:3: a NUL byte in the row" analyze nul-raw
# a point's row again after the next point began (written twice, or moved): its rows would count twice
results dup-point && sed -n 2p "$good/run.csv" >>"$W/dup-point/raw.csv"
row "dup-point/raw.csv:6: point 0 again, after point 1 began" analyze dup-point
# raw.csv of the header alone: tables of nothing would replace an earlier analysis
results header-only && head -1 "$good/run.csv" >"$W/header-only/raw.csv"
row "header-only/raw.csv: the header alone, no measurement to analyze" analyze header-only
results dir-raw && rm "$W/dir-raw/raw.csv" && mkdir "$W/dir-raw/raw.csv"
row "dir-raw/raw.csv is a directory, not a file" analyze dir-raw
results fifo-raw && rm "$W/fifo-raw/raw.csv" && mkfifo "$W/fifo-raw/raw.csv"
(cd "$W" && timeout 20 "$PMUCHECK" analyze -q fifo-raw) >"$TMP/fifo.out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -qF "fifo-raw/raw.csv is not a plain file" "$TMP/fifo.out" &&
	ok "analyze refuses a FIFO raw.csv at once (exit 2)" ||
	notok "analyze refuses a FIFO raw.csv at once (exit 2)" "exit $rc: $(head -c 300 "$TMP/fifo.out")"
# machine.json and events.json the same: a FIFO held analyze, report, export and merge for ever
results fifo-json && rm "$W/fifo-json/machine.json" && mkfifo "$W/fifo-json/machine.json"
results fifo-events && "$PMUCHECK" analyze -q "$W/fifo-events" >/dev/null && rm "$W/fifo-events/events.json" &&
	mkfifo "$W/fifo-events/events.json"
for c in "fifo-json/machine.json:analyze -q fifo-json" "fifo-events/events.json:report fifo-events" \
	"fifo-events/events.json:export fifo-events --format perf" "fifo-events/events.json:merge -o m fifo-events"; do
	# shellcheck disable=SC2086 # the command's words
	(cd "$W" && timeout 20 "$PMUCHECK" ${c#*:}) >"$TMP/fifo.out" 2>&1
	rc=$?
	[ $rc -eq 2 ] && grep -qF "${c%%:*} is not a plain file" "$TMP/fifo.out" &&
		ok "${c#*:}: a FIFO in place of ${c%%:*} is refused at once (exit 2)" ||
		notok "${c#*:}: a FIFO in place of ${c%%:*} is refused at once (exit 2)" \
			"exit $rc: $(head -c 300 "$TMP/fifo.out")"
done
# report removes its old figures from plots/ and writes new ones there: a plots that is a link would have
# that done wherever it points
results plots-link && "$PMUCHECK" analyze -q "$W/plots-link" >/dev/null && mkdir "$TMP/elsewhere" &&
	echo keep >"$TMP/elsewhere/holiday.png" && ln -s "$TMP/elsewhere" "$W/plots-link/plots"
row "plots-link/plots is a link, not the directory report writes its figures into" report plots-link
check "report left the files where plots pointed" grep -q keep "$TMP/elsewhere/holiday.png"

[ "$n" -ge 40 ] && ok "the table has $n bad inputs (at least 40)" || notok "the table has at least 40 bad inputs" "$n"
