#!/bin/bash
# install.sh — `make install DESTDIR=... PREFIX=/usr` gives a tool that works on its own: run from
# another directory, with no PMUCHECK_CONFIG_DIR and no source tree above it, the installed binary finds
# its configs (also after the tree is moved), answers --version and help, and comes with a man page
# that parses and a bash completion that completes; `make uninstall` removes every file again.
. "$(dirname "$0")/../lib.sh"
unset PMUCHECK_CONFIG_DIR

ROOT=$TMP/root
BIN=$ROOT/usr/bin/pmucheck
mkdir -p "$TMP/elsewhere"
check "make install DESTDIR PREFIX=/usr" make -s -C "$TOP" install DESTDIR="$ROOT" PREFIX=/usr
for f in bin/pmucheck share/pmucheck/configs/generic.ini share/pmucheck/configs/reference/README.md \
	share/man/man1/pmucheck.1 share/bash-completion/completions/pmucheck share/doc/pmucheck/README.md \
	share/doc/pmucheck/LICENSE share/doc/pmucheck/docs/architecture.md; do
	check "installs $f" test -f "$ROOT/usr/$f"
done

# pmucheck ARGS... in an empty directory far from the source tree; output in $TMP/out.
installed() { (cd "$TMP/elsewhere" && "$@") >"$TMP/out" 2>&1; }

check "installed info uses share/pmucheck/configs" \
	bash -c 'cd "$1" && "$2" info | grep -q "^config .*/usr/share/pmucheck/configs/"' _ "$TMP/elsewhere" "$BIN"
check "installed list kernels" installed "$BIN" list kernels
check "installed run --dry-run --quick" installed "$BIN" run --dry-run --quick
check "the dry run wrote nothing where it ran" test -z "$(ls -A "$TMP/elsewhere")"
check "--version names pmucheck and the libraries" \
	bash -c '"$1" --version | tr "\n" " " | grep -q "^pmucheck [0-9.]* PAPI .* libpfm4 .* hwloc "' _ "$BIN"
# libpfm4's release (its event tables change with it), not its API version (4.0 in every 4.x release):
# the one the program loads, as its file name says
pfm=$(readlink -f "$(ldd "$BIN" | awk '/libpfm\.so/ {print $3}')" | sed -n 's/.*libpfm\.so\.//p')
check "--version names the libpfm4 release the program loads ($pfm)" \
	bash -c '[ -n "$2" ] && "$1" --version | grep -qx "libpfm4 $2"' _ "$BIN" "$pfm"
check "help run prints run's --help" bash -c 'diff <("$1" help run) <("$1" run --help)' _ "$BIN"

mv "$ROOT" "$TMP/moved"
check "a DESTDIR tree moved as a whole still finds its configs" \
	bash -c 'cd "$1" && "$2" info | grep -q "^config .*/moved/usr/share/pmucheck/configs/"' _ "$TMP/elsewhere" "$TMP/moved/usr/bin/pmucheck"
mv "$TMP/moved" "$ROOT"
mkdir -p "$TMP/bare" && cp "$BIN" "$TMP/bare/"
check "a lone copy names every place it looked for configs" \
	bash -c 'cd "$1" && "$2" info | grep -qF "$1/bare/configs, $1/configs, " &&
		"$2" info | grep -qF "$1/share/pmucheck/configs; set PMUCHECK_CONFIG_DIR"' _ "$TMP" "$TMP/bare/pmucheck"

MAN=$ROOT/usr/share/man/man1/pmucheck.1
check "the man page starts with .TH PMUCHECK 1 and has NAME, SYNOPSIS, COMMANDS" \
	bash -c 'head -1 "$1" | grep -q "^\.TH PMUCHECK 1 " && grep -q "^\.SH NAME" "$1" &&
		grep -q "^\.SH SYNOPSIS" "$1" && grep -q "^\.SS run$" "$1"' _ "$MAN"
if command -v groff >/dev/null; then
	check "the man page formats without a groff warning" \
		bash -c 'groff -man -Tutf8 -ww -z "$1" 2>&1 | { ! grep .; }' _ "$MAN"
	check "the formatted man page carries run's options" \
		bash -c 'groff -man -Tutf8 "$1" 2>/dev/null | sed "s/.\x08//g" | grep -q -- "--dry-run"' _ "$MAN"
else
	skip "the man page formats without a groff warning" "no groff"
	skip "the formatted man page carries run's options" "no groff"
fi

# complete_at DIR WORDS...: what the installed completion offers for the last word, in DIR;
# complete_words WORDS...: in an empty directory.
complete_at() {
	(cd "$1" && shift && bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _pmucheck
		echo "${COMPREPLY[*]}"' _ "$ROOT/usr/share/bash-completion/completions/pmucheck" "$@")
}
complete_words() { complete_at "$TMP/elsewhere" "$@"; }
check "completion: pmucheck r -> report run" test "$(complete_words pmucheck r)" = "report run"
check "completion: pmucheck list '' -> events kernels" test "$(complete_words pmucheck list '')" = "events kernels"
check "completion: pmucheck run --kernels copy.avx5 -> copy.avx512 copy.avx512.nt" \
	test "$(complete_words pmucheck run --kernels copy.avx5)" = "copy.avx512 copy.avx512.nt"
check "completion: pmucheck run --dr -> --dry-run" test "$(complete_words pmucheck run --dr)" = "--dry-run"

# After an option whose help names a FILE: file names; a directory (DIR, OUTDIR, ROOT, OUT): directories;
# after export's --format its formats; nothing else (no command words, no files after a directory's
# option). In a directory of one file and one directory; the order compgen gives is not the test's.
mkdir -p "$TMP/files/adir" && touch "$TMP/files/afile"
completes() {
	local want=$1 got
	shift
	got=$(complete_at "$TMP/files" pmucheck "$@" | tr ' ' '\n' | sort | xargs)
	[ "$got" = "$(xargs -n1 <<<"$want" | sort | xargs)" ] || { echo "# offered: $got" >&2; return 1; }
}
for c in 'run --levels-from' 'run --out' 'run -o' 'run --resume' 'run --results' 'all --levels-from' \
	'--quick --levels-from' 'discover --sysfs' 'discover --out' 'discover --results' 'fleet --shared' \
	'fleet -s' 'export DIR --out' 'export DIR -o' 'merge --out' 'merge -o'; do
	# shellcheck disable=SC2086 # the case's words
	check "completion: pmucheck $c a -> the directory only" completes adir $c a
done
for c in 'run --config' 'discover --vendor' 'discover --write' 'discover -w' 'fleet --script'; do
	# shellcheck disable=SC2086
	check "completion: pmucheck $c a -> files and directories" completes "adir afile" $c a
done
check "completion: pmucheck export DIR --format '' -> perf likwid papi" completes "perf likwid papi" export DIR --format ''
check "completion: pmucheck export DIR -f '' -> perf likwid papi" completes "perf likwid papi" export DIR -f ''

# An option given as --opt=VALUE: bash splits the line at the = (COMP_WORDBREAKS), so the words are
# "--out" "=" "a", and right after the = the word completed is "=" itself; the value completes as after
# "--out a".
check "completion: pmucheck run --out=a -> the directory only" completes adir run --out = a
check "completion: pmucheck run --out= -> the directory only" completes adir run --out =
check "completion: pmucheck run --config= -> files and directories" completes "adir afile" run --config =
check "completion: pmucheck export DIR --format= -> perf likwid papi" completes "perf likwid papi" export DIR --format =
check "completion: pmucheck run --kernels=copy.avx5 -> copy.avx512 copy.avx512.nt" \
	test "$(complete_words pmucheck run --kernels = copy.avx5)" = "copy.avx512 copy.avx512.nt"
check "completion: pmucheck run --kernels=n -> nopread nopread.gpr (no word of list kernels' notes)" \
	test "$(complete_words pmucheck run --kernels = n)" = "nopread nopread.gpr"

# Every command's options as its parser takes them (the getopt_long tables of commands/cli_<command>.c;
# cli.c's for the commands that read one results directory, run's too for `all`) against what the
# installed completion offers after `--` and what the man page's section of the command names: both come
# from the help texts (scripts/helpdoc.sh), so an option the help leaves out, or one it only mentions
# (another command's, one refused), fails here.
for c in $("$BIN" help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }'); do
	check "completion and man page of '$c': exactly the options its parser takes" python3 - "$TOP" "$c" \
		"$(complete_words pmucheck "$c" --)" "$MAN" <<'PY'
import re, sys
top, cmd, offered, man = sys.argv[1:]
src = open("%s/commands/cli_%s.c" % (top, cmd)).read()
if "cli_dir_command(" in src:
    src += open(top + "/commands/cli.c").read()
sections = [cmd] + (["run"] if cmd == "all" else [])
if cmd == "all":
    src += open(top + "/commands/cli_run.c").read()
parser = set(re.findall(r'\{"([a-z][a-z-]*)", *(?:no|required|optional)_argument', src)) | {"help"}
completion = set(o[2:] for o in offered.split())
assert completion == parser, ("completion lacks", sorted(parser - completion), "not taken", sorted(completion - parser))
page = open(man).read()
text = "".join(page.split(".SS %s\n" % s)[1].split(".SS ")[0] for s in sections)
# roff writes every - of an option as \-
missing = sorted(o for o in parser - {"help"} if "\\-\\-" + o.replace("-", "\\-") not in text)
assert not missing, ("man page lacks", missing)
PY
done

check "make uninstall DESTDIR" make -s -C "$TOP" uninstall DESTDIR="$ROOT" PREFIX=/usr
check "uninstall leaves no file behind" test -z "$(find "$ROOT" -type f)"
