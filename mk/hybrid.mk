# hybrid.mk — the generator of a hybrid CPU's hwloc XML (tests/tools/hybrid_xml.c says why it is built, not
# written by hand), built with the unit tests because tests/integration/fake_machines.sh runs it.
HYBRID_XML := $(BUILD)/tests/tools/hybrid_xml

$(HYBRID_XML): tests/tools/hybrid_xml.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -lhwloc

unit-tests: $(HYBRID_XML)
