# san.mk — `make test` also runs the unit tests and the quick integration suites against a build with
# AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer: make SAN=1 puts it in build-san/.
# tests/run.sh runs that pass when SAN_BUILD names the directory (reported as san/...); `make test
# SAN_TEST=0` leaves it out. ./pmucheck stays the plain build: only build-san/pmucheck is sanitized.
SAN_TEST ?= 1

.PHONY: san-build
san-build: deps-test
	$(MAKE) -j$(NPROC) SAN=1 build-san/pmucheck unit-tests

ifeq ($(SAN_TEST),1)
ifneq ($(SAN),1)
test: san-build
test: export SAN_BUILD := build-san
endif
endif
