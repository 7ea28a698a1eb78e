# install.mk — make install / make uninstall, optional: `make run` and `make test` need neither.
#   make install PREFIX=/usr DESTDIR=/tmp/root    (PREFIX defaults to /usr/local)
# Installs the binary, the configs (with configs/reference/) in share/pmucheck/configs, where the binary
# finds them from its own location (harness/config/cfg_select.c), the man page and the bash completion
# (both generated from the binary's help texts by scripts/helpdoc.sh), and README, LICENSE and docs/.
PREFIX ?= /usr/local
INST_BIN  := $(DESTDIR)$(PREFIX)/bin
INST_DATA := $(DESTDIR)$(PREFIX)/share/pmucheck
INST_MAN  := $(DESTDIR)$(PREFIX)/share/man/man1
INST_COMP := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
INST_DOC  := $(DESTDIR)$(PREFIX)/share/doc/pmucheck
MAN_PAGE   := $(BUILD)/doc/pmucheck.1
COMPLETION := $(BUILD)/doc/pmucheck.bash

.PHONY: install uninstall
all: $(MAN_PAGE) $(COMPLETION)

$(MAN_PAGE): $(BUILD)/pmucheck scripts/helpdoc.sh
	@mkdir -p $(dir $@)
	scripts/helpdoc.sh man $< >$@.tmp && mv $@.tmp $@

$(COMPLETION): $(BUILD)/pmucheck scripts/helpdoc.sh
	@mkdir -p $(dir $@)
	scripts/helpdoc.sh completion $< >$@.tmp && mv $@.tmp $@

install: $(BUILD)/pmucheck $(MAN_PAGE) $(COMPLETION)
	install -D -m 755 $(BUILD)/pmucheck "$(INST_BIN)/pmucheck"
	find configs -type f -exec sh -c 'install -D -m 644 "$$1" "$$2/$$1"' sh {} "$(INST_DATA)" \;
	install -D -m 644 $(MAN_PAGE) "$(INST_MAN)/pmucheck.1"
	install -D -m 644 $(COMPLETION) "$(INST_COMP)/pmucheck"
	install -D -m 755 scripts/pmucheck-fleet.sbatch "$(INST_DATA)/pmucheck-fleet.sbatch"
	install -D -m 644 -t "$(INST_DOC)" README.md LICENSE
	find docs -type f -exec install -D -m 644 {} "$(INST_DOC)/{}" \;

# Only what install put there: share/pmucheck and share/doc/pmucheck are pmucheck's own folders.
uninstall:
	rm -f "$(INST_BIN)/pmucheck" "$(INST_MAN)/pmucheck.1" "$(INST_COMP)/pmucheck"
	rm -rf "$(INST_DATA)" "$(INST_DOC)"
