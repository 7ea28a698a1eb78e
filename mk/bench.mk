# make bench-compare: pmucheck's kernels against likwid-bench's, same CPUs, threads and sizes.
bench-compare: pmucheck
	@dpkg-query -W -f='$${Status}' likwid 2>/dev/null | grep -q "install ok installed" || \
		{ [ "$$(id -u)" -eq 0 ] && apt-get install -y -qq likwid >&2 || \
		  { echo "run as root: apt-get install -y likwid" >&2; exit 1; }; }
	scripts/bench-compare.sh $(KERNELS)

# make repeatability: two identical --quick runs, L1/L2 bandwidths compared (the suite's check, alone).
repeatability: pmucheck
	bash tests/integration/repeatability.sh
