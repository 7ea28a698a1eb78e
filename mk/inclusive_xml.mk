# inclusive_xml.mk — the generator of an hwloc XML whose L3 says whether it is inclusive (tests/tools/
# inclusive_xml.c says why it is built), built with the unit tests because tests/integration/fake_machines.sh
# runs it.
INCLUSIVE_XML := $(BUILD)/tests/tools/inclusive_xml

$(INCLUSIVE_XML): tests/tools/inclusive_xml.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -lhwloc

unit-tests: $(INCLUSIVE_XML)
