/* inclusive_xml.c — writes the hwloc XML of a synthetic topology whose L3 caches say whether they are
 * inclusive, for tests/integration/fake_machines.sh (its HWLOC_XMLFILE): hwloc's x86 backend records that
 * from CPUID as the info "Inclusive" of each cache object (common/level.h), which a synthetic description
 * cannot carry, so the topology is built from one with hwloc's API, given the info, and exported.
 * Usage: inclusive_xml SYNTHETIC 0|1 FILE */
#include <hwloc.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	hwloc_topology_t h;
	hwloc_obj_t l3 = NULL;
	int r;

	if (argc != 4 || (strcmp(argv[2], "0") && strcmp(argv[2], "1"))) {
		fprintf(stderr, "usage: inclusive_xml SYNTHETIC 0|1 FILE\n");
		return 2;
	}
	if (hwloc_topology_init(&h) || hwloc_topology_set_synthetic(h, argv[1]) || hwloc_topology_load(h)) {
		fprintf(stderr, "inclusive_xml: hwloc could not build '%s'\n", argv[1]);
		return 1;
	}
	while ((l3 = hwloc_get_next_obj_by_type(h, HWLOC_OBJ_L3CACHE, l3)))
		hwloc_obj_add_info(l3, "Inclusive", argv[2]);
	r = hwloc_topology_export_xml(h, argv[3], 0);
	if (r)
		fprintf(stderr, "inclusive_xml: cannot write %s\n", argv[3]);
	hwloc_topology_destroy(h);
	return r ? 1 : 0;
}
