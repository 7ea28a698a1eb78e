#!/bin/sh
# deps.sh — installs the Debian packages pmucheck needs, only those missing, only as root.
# As another user it prints the exact command to run and fails.
# Usage: scripts/deps.sh build|test|run
set -eu

build="gcc make libc6-dev libpapi-dev papi-tools libpfm4-dev libnuma-dev libhwloc-dev libinih-dev libjansson-dev"
run="gnuplot-nox"
# clang-format and groff-base: the format check (tests/integration/format.sh) and the man page's (install.sh)
# skip without them, which a fresh machine's minimal image would not say until the suite ran
# iproute2: fleet_slurm.sh's `ip` (a minimal image lacks it too)
test="python3 libcmocka-dev valgrind binutils clang clang-format libclang-rt-14-dev groff-base linux-perf likwid munge slurmctld slurmd slurm-client iproute2"

case "${1:-build}" in
build) want="$build" ;;
run) want="$build $run" ;;
test) want="$build $run $test" ;;
*) echo "usage: $0 build|test|run" >&2; exit 2 ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
	echo "scripts/deps.sh: no dpkg-query or apt-get here, so not a Debian system: install the equivalents of:" \
		"$want" >&2
	exit 1
fi
missing=""
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "pmucheck needs these Debian packages:$missing" >&2
	echo "run as root:  apt-get update && apt-get install -y$missing" >&2
	exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# apt-get update only warns (exit 0) where no mirror answers; the install then fails "Unable to locate
# package", which does not say why
apt-get update -qq >&2
# shellcheck disable=SC2086
if ! apt-get install -y -qq --no-install-recommends $missing >&2; then
	echo "scripts/deps.sh: apt-get could not install:$missing (is a Debian mirror reachable? apt-get update's" \
		"warnings above say)" >&2
	exit 1
fi
