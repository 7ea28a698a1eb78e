/* hybrid_xml.c — writes the hwloc XML of a small hybrid CPU for tests/integration/fake_machines.sh (its
 * HWLOC_XMLFILE): one L3 over 2 P-cores of 2 PUs with a 1.25 MiB L2 each and 4 E-cores of 1 PU whose L2 is
 * 2 MiB (Alder Lake's sizes, though there four E-cores share one), and hwloc's two CPU kinds, as its Linux
 * backend registers them from the core types. hwloc's synthetic topologies give every object of a level the
 * same size and no kinds, so this one is built with hwloc's API and exported.
 * Usage: hybrid_xml FILE */
#include <hwloc.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	hwloc_topology_t h;
	hwloc_bitmap_t p = hwloc_bitmap_alloc(), e = hwloc_bitmap_alloc(), keep = hwloc_bitmap_alloc();
	hwloc_obj_t l2 = NULL;
	int r;

	if (argc != 2 || !p || !e || !keep) {
		fprintf(stderr, "usage: hybrid_xml FILE\n");
		return 2;
	}
	/* six cores of two PUs, then the E-cores (cores 2-5) left with one PU each: PUs 0-4,6,8,10 */
	if (hwloc_topology_init(&h) ||
	    hwloc_topology_set_synthetic(
		    h, "pack:1 l3:1(size=25165824) l2:6(size=1310720) l1d:1(size=49152) core:1 pu:2") ||
	    hwloc_topology_load(h) || hwloc_bitmap_list_sscanf(keep, "0-4,6,8,10") ||
	    hwloc_topology_restrict(h, keep, 0)) {
		fprintf(stderr, "hybrid_xml: hwloc could not build the topology\n");
		return 1;
	}
	while ((l2 = hwloc_get_next_obj_by_type(h, HWLOC_OBJ_L2CACHE, l2)))
		if (l2->logical_index >= 2)
			l2->attr->cache.size = 2 << 20;
	r = hwloc_bitmap_list_sscanf(p, "0-3") || hwloc_bitmap_list_sscanf(e, "4,6,8,10") ||
		hwloc_cpukinds_register(h, e, 0, 0, NULL, 0) ||
		hwloc_cpukinds_register(h, p, 1, 0, NULL, 0) || hwloc_topology_export_xml(h, argv[1], 0);
	if (r)
		fprintf(stderr, "hybrid_xml: cannot write %s\n", argv[1]);
	hwloc_bitmap_free(p);
	hwloc_bitmap_free(e);
	hwloc_bitmap_free(keep);
	hwloc_topology_destroy(h);
	return r ? 1 : 0;
}
