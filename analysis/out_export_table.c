/* out_export_table.c — the names perf and LIKWID give the core events pmucheck's configs count,
 * keyed by what the hardware is told (event code, umask, counter mask, offcore response), never by
 * the spelling of a name.
 *
 * perf: the pmu-events tables of Linux 6.1 (tools/perf/pmu-events/arch/x86/<dir>/ JSON files; amdzen2,
 * amdzen3, skylakex, icelakex, sapphirerapids, haswellx, broadwellx) as Debian's linux-perf 6.1
 * lists them (`PERF_CPUID=<cpuid> perf list --details`), matched by encoding to every event of
 * configs/<arch>.ini; zen5 and gnr from the amdzen5 and graniterapids JSON the configs cite (the
 * config's perf spec is that JSON's encoding). zen4 is left out: perf 6.1 reads Zen 4 with the
 * amdzen3 table, later perfs with amdzen4, so no one name is right; its events go out raw.
 * LIKWID: src/includes/perfmon_<arch>_events.txt of RRZE-HPC/likwid (master, 2025: zen2, zen3, zen4,
 * zen5, skylakeX, icelakeX, sapphirerapids, graniterapids, haswellEP, broadwellEP), EVENT_<name> code
 * and class, UMASK_<name> umask, matched by code and umask to the configs' events (zen4's encodings as
 * libpfm4 4.13 gives them for amd64_fam19h_zen4); group folders as LIKWID's groups/ names them (GNR).
 * Where LIKWID
 * lists two names for one umask (its "Added by T. Gruber" aliases), the one AMD's PPR uses. No entry:
 * LIKWID has no umask that equal (zen4/zen5 any/prefetch fills 0x5f/0xff/0x50, zen2 L2 prefetch misses
 * 0xff where LIKWID has 0x1f, zen4/zen5 cycles-no-retire load-miss 0xa2 where LIKWID has 0x52/0xa1).
 * An event with a counter mask gets LIKWID's name only where LIKWID's DEFAULT_OPTIONS_<name> sets that
 * EVENT_OPTION_THRESHOLD (e.g. icelakeX CYCLE_ACTIVITY_STALLS_*, sapphirerapids MEMORY_ACTIVITY_*):
 * LIKWID then programs the same cmask. Offcore events have no LIKWID entry (LIKWID sets their response
 * mask by options this table does not carry), nor has an event LIKWID puts on one counter only
 * (haswellEP/broadwellEP L1D_PEND_MISS and the L1D stall cycles on PMC2): the groups use PMC0. */
#include <stdlib.h>
#include <string.h>

#include "out_export_table.h"

static const struct out_event_name names[] = {
	/* zen2 */
	{"zen2", 0x29, 0x01, 0, 0x0, "ls_dispatch.ld_dispatch", "LS_DISPATCH_LOADS"},
	{"zen2", 0x29, 0x02, 0, 0x0, "ls_dispatch.store_dispatch", "LS_DISPATCH_STORES"},
	{"zen2", 0x47, 0x00, 0, 0x0, "ls_misal_accesses", "MISALIGNED_LOADS"},
	{"zen2", 0x43, 0x01, 0, 0x0, "ls_refills_from_sys.ls_mabresp_lcl_l2", "DATA_CACHE_REFILLS_LOCAL_L2"},
	{"zen2", 0x43, 0x02, 0, 0x0, "ls_refills_from_sys.ls_mabresp_lcl_cache",
	 "DATA_CACHE_REFILLS_LOCAL_CACHE"},
	{"zen2", 0x43, 0x08, 0, 0x0, "ls_refills_from_sys.ls_mabresp_lcl_dram",
	 "DATA_CACHE_REFILLS_LOCAL_DRAM"},
	{"zen2", 0x43, 0x40, 0, 0x0, "ls_refills_from_sys.ls_mabresp_rmt_dram",
	 "DATA_CACHE_REFILLS_REMOTE_DRAM"},
	{"zen2", 0x41, 0x01, 0, 0x0, "ls_mab_alloc.loads", "LS_MAB_ALLOC_LOADS"},
	{"zen2", 0x60, 0x80, 0, 0x0, "l2_request_g1.rd_blk_l", "REQUESTS_TO_L2_GRP1_RD_BLOCK_L"},
	{"zen2", 0x60, 0x40, 0, 0x0, "l2_request_g1.rd_blk_x", "REQUESTS_TO_L2_GRP1_RD_BLOCK_X"},
	{"zen2", 0x64, 0x08, 0, 0x0, "l2_cache_req_stat.ls_rd_blk_c",
	 "CORE_TO_L2_CACHE_REQUESTS_LD_READ_BLK_C"},
	{"zen2", 0x72, 0xff, 0, 0x0, "l2_pf_miss_l2_l3", NULL},
	{"zen2", 0xae, 0x02, 0, 0x0, "de_dis_dispatch_token_stalls1.load_queue_token_stall",
	 "DYN_TOKENS_DISP_STALL_CYCLES1_LD_QUEUE_STALL"},
	{"zen2", 0xae, 0x04, 0, 0x0, "de_dis_dispatch_token_stalls1.store_queue_token_stall",
	 "DYN_TOKENS_DISP_STALL_CYCLES1_ST_QUEUE_STALL"},
	/* zen3 */
	{"zen3", 0x29, 0x01, 0, 0x0, "ls_dispatch.ld_dispatch", "LS_DISPATCH_LOADS"},
	{"zen3", 0x29, 0x02, 0, 0x0, "ls_dispatch.store_dispatch", "LS_DISPATCH_STORES"},
	{"zen3", 0x47, 0x01, 0, 0x0, "ls_misal_loads.ma64", "MISALIGNED_LOADS_COUNT_MA_64B"},
	{"zen3", 0x44, 0x5f, 0, 0x0, NULL, "L1_DC_REFILLS_ALL"},
	{"zen3", 0x43, 0x01, 0, 0x0, "ls_dmnd_fills_from_sys.lcl_l2", "DATA_CACHE_REFILLS_LOCAL_L2"},
	{"zen3", 0x43, 0x02, 0, 0x0, "ls_dmnd_fills_from_sys.int_cache", "DATA_CACHE_REFILLS_INT_CACHE"},
	{"zen3", 0x43, 0x08, 0, 0x0, "ls_dmnd_fills_from_sys.mem_io_local", "DATA_CACHE_REFILLS_LOCAL_DRAM"},
	{"zen3", 0x43, 0x40, 0, 0x0, "ls_dmnd_fills_from_sys.mem_io_remote",
	 "DATA_CACHE_REFILLS_REMOTE_DRAM"},
	{"zen3", 0x5a, 0x5f, 0, 0x0, NULL, "HWPREF_DATA_CACHE_FILLS_ALL"},
	{"zen3", 0x41, 0x3f, 0, 0x0, "ls_mab_alloc.load_store_allocations", NULL},
	{"zen3", 0x5f, 0x00, 0, 0x0, "ls_alloc_mab_count", "COUNT_OF_ALLOC_MABS"},
	{"zen3", 0x60, 0x80, 0, 0x0, "l2_request_g1.rd_blk_l", "REQUESTS_TO_L2_GRP1_RD_BLOCK_L"},
	{"zen3", 0x60, 0x40, 0, 0x0, "l2_request_g1.rd_blk_x", "REQUESTS_TO_L2_GRP1_RD_BLOCK_X"},
	{"zen3", 0x64, 0x08, 0, 0x0, "l2_cache_req_stat.ls_rd_blk_c",
	 "CORE_TO_L2_CACHE_REQUESTS_LD_READ_BLK_C"},
	{"zen3", 0x72, 0xff, 0, 0x0, "l2_pf_miss_l2_l3", "L2_PF_MISS_IN_L3"},
	{"zen3", 0xae, 0x02, 0, 0x0, "de_dis_dispatch_token_stalls1.load_queue_rsrc_stall", NULL},
	{"zen3", 0xae, 0x04, 0, 0x0, "de_dis_dispatch_token_stalls1.store_queue_rsrc_stall", NULL},
	{"zen3", 0xaf, 0x20, 0, 0x0, "de_dis_dispatch_token_stalls2.retire_token_stall", NULL},
	/* skx */
	{"skx", 0xd0, 0x81, 0, 0x0, "mem_inst_retired.all_loads", "MEM_INST_RETIRED_ALL_LOADS"},
	{"skx", 0xd0, 0x82, 0, 0x0, "mem_inst_retired.all_stores", "MEM_INST_RETIRED_ALL_STORES"},
	{"skx", 0x51, 0x01, 0, 0x0, "l1d.replacement", "L1D_REPLACEMENT"},
	{"skx", 0xd0, 0x41, 0, 0x0, "mem_inst_retired.split_loads", "MEM_INST_RETIRED_SPLIT_LOADS"},
	{"skx", 0x24, 0xe1, 0, 0x0, "l2_rqsts.all_demand_data_rd", "L2_RQSTS_ALL_DEMAND_DATA_RD"},
	{"skx", 0x24, 0xe2, 0, 0x0, "l2_rqsts.all_rfo", "L2_RQSTS_ALL_RFO"},
	{"skx", 0xf1, 0x1f, 0, 0x0, "l2_lines_in.all", NULL},
	{"skx", 0xf2, 0x02, 0, 0x0, "l2_lines_out.non_silent", NULL},
	{"skx", 0xf0, 0x40, 0, 0x0, "l2_trans.l2_wb", "L2_TRANS_L2_WB"},
	{"skx", 0x2e, 0x41, 0, 0x0, "longest_lat_cache.miss", "LONGEST_LAT_CACHE_MISS"},
	{"skx", 0xd1, 0x08, 0, 0x0, "mem_load_retired.l1_miss", "MEM_LOAD_RETIRED_L1_MISS"},
	{"skx", 0xd1, 0x04, 0, 0x0, "mem_load_retired.l3_hit", "MEM_LOAD_RETIRED_L3_HIT"},
	{"skx", 0xd1, 0x20, 0, 0x0, "mem_load_retired.l3_miss", "MEM_LOAD_RETIRED_L3_MISS"},
	{"skx", 0xd3, 0x01, 0, 0x0, "mem_load_l3_miss_retired.local_dram", NULL},
	{"skx", 0xd3, 0x02, 0, 0x0, "mem_load_l3_miss_retired.remote_dram", NULL},
	{"skx", 0xd1, 0x40, 0, 0x0, "mem_load_retired.fb_hit", "MEM_LOAD_RETIRED_FB_HIT"},
	{"skx", 0x48, 0x01, 0, 0x0, "l1d_pend_miss.pending", "L1D_PEND_MISS_PENDING"},
	{"skx", 0x48, 0x02, 0, 0x0, "l1d_pend_miss.fb_full", NULL},
	{"skx", 0xb2, 0x01, 0, 0x0, "offcore_requests_buffer.sq_full", "OFFCORE_REQUESTS_BUFFER_SQ_FULL"},
	{"skx", 0xa3, 0x0c, 12, 0x0, "cycle_activity.stalls_l1d_miss", NULL},
	{"skx", 0xa3, 0x06, 6, 0x0, "cycle_activity.stalls_l3_miss", NULL},
	{"skx", 0xa3, 0x14, 20, 0x0, "cycle_activity.stalls_mem_any", NULL},
	{"skx", 0xa3, 0x04, 4, 0x0, "cycle_activity.stalls_total", NULL},
	{"skx", 0xa6, 0x40, 0, 0x0, "exe_activity.bound_on_stores", "EXE_ACTIVITY_BOUND_ON_STORES"},
	/* icx */
	{"icx", 0xd0, 0x81, 0, 0x0, "mem_inst_retired.all_loads", "MEM_INST_RETIRED_ALL_LOADS"},
	{"icx", 0xd0, 0x82, 0, 0x0, "mem_inst_retired.all_stores", "MEM_INST_RETIRED_ALL_STORES"},
	{"icx", 0x51, 0x01, 0, 0x0, "l1d.replacement", "L1D_REPLACEMENT"},
	{"icx", 0xd0, 0x41, 0, 0x0, "mem_inst_retired.split_loads", "MEM_INST_RETIRED_SPLIT_LOADS"},
	{"icx", 0x24, 0xe1, 0, 0x0, "l2_rqsts.all_demand_data_rd", "L2_RQSTS_ALL_DEMAND_DATA_RD"},
	{"icx", 0x24, 0xe2, 0, 0x0, "l2_rqsts.all_rfo", "L2_RQSTS_ALL_RFO"},
	{"icx", 0xf1, 0x1f, 0, 0x0, "l2_lines_in.all", "L2_LINES_IN_ALL"},
	{"icx", 0xf2, 0x02, 0, 0x0, "l2_lines_out.non_silent", "L2_LINES_OUT_NON_SILENT"},
	{"icx", 0xf0, 0x40, 0, 0x0, "l2_trans.l2_wb", "L2_TRANS_L2_WB"},
	{"icx", 0x2e, 0x41, 0, 0x0, "longest_lat_cache.miss", NULL},
	{"icx", 0xd1, 0x08, 0, 0x0, "mem_load_retired.l1_miss", "MEM_LOAD_RETIRED_L1_MISS"},
	{"icx", 0xd1, 0x04, 0, 0x0, "mem_load_retired.l3_hit", "MEM_LOAD_RETIRED_L3_HIT"},
	{"icx", 0xd1, 0x20, 0, 0x0, "mem_load_retired.l3_miss", "MEM_LOAD_RETIRED_L3_MISS"},
	{"icx", 0xd3, 0x01, 0, 0x0, "mem_load_l3_miss_retired.local_dram", NULL},
	{"icx", 0xd3, 0x02, 0, 0x0, "mem_load_l3_miss_retired.remote_dram", NULL},
	{"icx", 0xd1, 0x40, 0, 0x0, "mem_load_retired.fb_hit", "MEM_LOAD_RETIRED_FB_HIT"},
	{"icx", 0x48, 0x01, 0, 0x0, "l1d_pend_miss.pending", "L1D_PEND_MISS_PENDING"},
	{"icx", 0x48, 0x02, 0, 0x0, "l1d_pend_miss.fb_full", "L1D_PEND_MISS_FB_FULL"},
	{"icx", 0xf4, 0x04, 0, 0x0, "sq_misc.sq_full", "SQ_MISC"},
	{"icx", 0xa3, 0x0c, 12, 0x0, "cycle_activity.stalls_l1d_miss", "CYCLE_ACTIVITY_STALLS_L1D_MISS"},
	{"icx", 0xa3, 0x06, 6, 0x0, "cycle_activity.stalls_l3_miss", "CYCLE_ACTIVITY_STALLS_L3_MISS"},
	{"icx", 0xa3, 0x14, 20, 0x0, "cycle_activity.stalls_mem_any", "CYCLE_ACTIVITY_STALLS_MEM_ANY"},
	{"icx", 0xa3, 0x04, 4, 0x0, "cycle_activity.stalls_total", "CYCLE_ACTIVITY_STALLS_TOTAL"},
	{"icx", 0xa6, 0x40, 2, 0x0, "exe_activity.bound_on_stores", NULL},
	/* spr */
	{"spr", 0xd0, 0x81, 0, 0x0, "mem_inst_retired.all_loads", "MEM_INST_RETIRED_ALL_LOADS"},
	{"spr", 0xd0, 0x82, 0, 0x0, "mem_inst_retired.all_stores", "MEM_INST_RETIRED_ALL_STORES"},
	{"spr", 0x51, 0x01, 0, 0x0, "l1d.replacement", "L1D_REPLACEMENT"},
	{"spr", 0xd0, 0x41, 0, 0x0, "mem_inst_retired.split_loads", "MEM_INST_RETIRED_SPLIT_LOADS"},
	{"spr", 0x24, 0xe1, 0, 0x0, "l2_rqsts.all_demand_data_rd", "L2_RQSTS_ALL_DEMAND_DATA_RD"},
	{"spr", 0x24, 0xe2, 0, 0x0, "l2_rqsts.all_rfo", "L2_RQSTS_ALL_RFO"},
	{"spr", 0x25, 0x1f, 0, 0x0, "l2_lines_in.all", "L2_LINES_IN_ALL"},
	{"spr", 0x26, 0x02, 0, 0x0, "l2_lines_out.non_silent", "L2_LINES_OUT_NON_SILENT"},
	{"spr", 0x2e, 0x41, 0, 0x0, "longest_lat_cache.miss", "LONGEST_LAT_CACHE_MISS"},
	{"spr", 0xd1, 0x08, 0, 0x0, "mem_load_retired.l1_miss", "MEM_LOAD_RETIRED_L1_MISS"},
	{"spr", 0xd1, 0x04, 0, 0x0, "mem_load_retired.l3_hit", "MEM_LOAD_RETIRED_L3_HIT"},
	{"spr", 0xd1, 0x20, 0, 0x0, "mem_load_retired.l3_miss", "MEM_LOAD_RETIRED_L3_MISS"},
	{"spr", 0xd3, 0x01, 0, 0x0, "mem_load_l3_miss_retired.local_dram",
	 "MEM_LOAD_L3_MISS_RETIRED_LOCAL_DRAM"},
	{"spr", 0xd3, 0x02, 0, 0x0, "mem_load_l3_miss_retired.remote_dram",
	 "MEM_LOAD_L3_MISS_RETIRED_REMOTE_DRAM"},
	{"spr", 0x2a, 0x01, 0, 0x94002380, "ocr.hwpf_l3.l3_miss", NULL},
	{"spr", 0xd1, 0x40, 0, 0x0, "mem_load_retired.fb_hit", "MEM_LOAD_RETIRED_FB_HIT"},
	{"spr", 0x48, 0x01, 0, 0x0, "l1d_pend_miss.pending", "L1D_PEND_MISS_PENDING"},
	{"spr", 0x48, 0x02, 0, 0x0, "l1d_pend_miss.fb_full", "L1D_PEND_MISS_FB_FULL"},
	{"spr", 0x47, 0x03, 3, 0x0, "memory_activity.stalls_l1d_miss", "MEMORY_ACTIVITY_STALLS_L1D_MISS"},
	{"spr", 0x47, 0x09, 9, 0x0, "memory_activity.stalls_l3_miss", "MEMORY_ACTIVITY_STALLS_L3_MISS"},
	{"spr", 0xa3, 0x04, 4, 0x0, "cycle_activity.stalls_total", "CYCLE_ACTIVITY_STALLS_TOTAL"},
	{"spr", 0xa6, 0x40, 2, 0x0, "exe_activity.bound_on_stores", "EXE_ACTIVITY_BOUND_ON_STORES"},
	/* hsw_ep */
	{"hsw_ep", 0xd0, 0x81, 0, 0x0, "mem_uops_retired.all_loads", "MEM_UOPS_RETIRED_LOADS"},
	{"hsw_ep", 0xd0, 0x82, 0, 0x0, "mem_uops_retired.all_stores", "MEM_UOPS_RETIRED_STORES"},
	{"hsw_ep", 0x51, 0x01, 0, 0x0, "l1d.replacement", "L1D_REPLACEMENT"},
	{"hsw_ep", 0xd0, 0x41, 0, 0x0, "mem_uops_retired.split_loads", "MEM_UOPS_RETIRED_LOADS_SPLIT"},
	{"hsw_ep", 0xf0, 0x01, 0, 0x0, "l2_trans.demand_data_rd", "L2_TRANS_DEMAND_DATA_RD"},
	{"hsw_ep", 0xf0, 0x02, 0, 0x0, "l2_trans.rfo", "L2_TRANS_RFO"},
	{"hsw_ep", 0xf0, 0x10, 0, 0x0, "l2_trans.l1d_wb", "L2_TRANS_L1D_WB"},
	{"hsw_ep", 0xf1, 0x07, 0, 0x0, "l2_lines_in.all", "L2_LINES_IN_ALL"},
	{"hsw_ep", 0xf2, 0x06, 0, 0x0, "l2_lines_out.demand_dirty", "L2_LINES_OUT_DEMAND_DIRTY"},
	{"hsw_ep", 0xf0, 0x40, 0, 0x0, "l2_trans.l2_wb", "L2_TRANS_L2_WB"},
	{"hsw_ep", 0x2e, 0x41, 0, 0x0, "longest_lat_cache.miss", "LONGEST_LAT_CACHE_MISS"},
	{"hsw_ep", 0xd1, 0x08, 0, 0x0, "mem_load_uops_retired.l1_miss", "MEM_LOAD_UOPS_RETIRED_L1_MISS"},
	{"hsw_ep", 0xd1, 0x04, 0, 0x0, "mem_load_uops_retired.l3_hit", "MEM_LOAD_UOPS_RETIRED_L3_HIT"},
	{"hsw_ep", 0xd1, 0x20, 0, 0x0, "mem_load_uops_retired.l3_miss", "MEM_LOAD_UOPS_RETIRED_L3_MISS"},
	{"hsw_ep", 0xd3, 0x01, 0, 0x0, "mem_load_uops_l3_miss_retired.local_dram",
	 "MEM_LOAD_UOPS_L3_MISS_RETIRED_LOCAL_DRAM"},
	{"hsw_ep", 0xd3, 0x04, 0, 0x0, "mem_load_uops_l3_miss_retired.remote_dram",
	 "MEM_LOAD_UOPS_L3_MISS_RETIRED_REMOTE_DRAM"},
	{"hsw_ep", 0xd1, 0x40, 0, 0x0, "mem_load_uops_retired.hit_lfb", "MEM_LOAD_UOPS_RETIRED_HIT_LFB"},
	{"hsw_ep", 0x48, 0x01, 0, 0x0, "l1d_pend_miss.pending", NULL},
	{"hsw_ep", 0x48, 0x02, 1, 0x0, "l1d_pend_miss.fb_full", "L1D_PEND_MISS_FB_FULL"},
	{"hsw_ep", 0xb2, 0x01, 0, 0x0, "offcore_requests_buffer.sq_full", "OFFCORE_REQUESTS_BUFFER_SQ_FULL"},
	{"hsw_ep", 0xa3, 0x06, 6, 0x0, "cycle_activity.stalls_ldm_pending",
	 "CYCLE_ACTIVITY_STALLS_LDM_PENDING"},
	{"hsw_ep", 0xa3, 0x0c, 12, 0x0, "cycle_activity.stalls_l1d_pending", NULL},
	{"hsw_ep", 0xa3, 0x04, 4, 0x0, "cycle_activity.cycles_no_execute",
	 "CYCLE_ACTIVITY_CYCLES_NO_EXECUTE"},
	{"hsw_ep", 0xa2, 0x08, 0, 0x0, "resource_stalls.sb", "RESOURCE_STALLS_SB"},
	/* bdw_ep */
	{"bdw_ep", 0xd0, 0x81, 0, 0x0, "mem_uops_retired.all_loads", "MEM_UOPS_RETIRED_LOADS_ALL"},
	{"bdw_ep", 0xd0, 0x82, 0, 0x0, "mem_uops_retired.all_stores", "MEM_UOPS_RETIRED_STORES_ALL"},
	{"bdw_ep", 0x51, 0x01, 0, 0x0, "l1d.replacement", "L1D_REPLACEMENT"},
	{"bdw_ep", 0xd0, 0x41, 0, 0x0, "mem_uops_retired.split_loads", "MEM_UOPS_RETIRED_LOADS_SPLIT"},
	{"bdw_ep", 0xf0, 0x01, 0, 0x0, "l2_trans.demand_data_rd", "L2_TRANS_DEMAND_DATA_RD"},
	{"bdw_ep", 0xf0, 0x02, 0, 0x0, "l2_trans.rfo", "L2_TRANS_RFO"},
	{"bdw_ep", 0xf0, 0x10, 0, 0x0, "l2_trans.l1d_wb", "L2_TRANS_L1D_WB"},
	{"bdw_ep", 0xf1, 0x07, 0, 0x0, "l2_lines_in.all", "L2_LINES_IN_ALL"},
	{"bdw_ep", 0xf0, 0x40, 0, 0x0, "l2_trans.l2_wb", "L2_TRANS_L2_WB"},
	{"bdw_ep", 0x2e, 0x41, 0, 0x0, "longest_lat_cache.miss", "LONGEST_LAT_CACHE_MISS"},
	{"bdw_ep", 0xd1, 0x08, 0, 0x0, "mem_load_uops_retired.l1_miss", "MEM_LOAD_UOPS_RETIRED_L1_MISS"},
	{"bdw_ep", 0xd1, 0x04, 0, 0x0, "mem_load_uops_retired.l3_hit", "MEM_LOAD_UOPS_RETIRED_L3_HIT"},
	{"bdw_ep", 0xd1, 0x20, 0, 0x0, "mem_load_uops_retired.l3_miss", "MEM_LOAD_UOPS_RETIRED_L3_MISS"},
	{"bdw_ep", 0xd3, 0x01, 0, 0x0, "mem_load_uops_l3_miss_retired.local_dram",
	 "MEM_LOAD_UOPS_L3_MISS_RETIRED_LOCAL_DRAM"},
	{"bdw_ep", 0xd3, 0x04, 0, 0x0, "mem_load_uops_l3_miss_retired.remote_dram",
	 "MEM_LOAD_UOPS_L3_MISS_RETIRED_REMOTE_DRAM"},
	{"bdw_ep", 0xd1, 0x40, 0, 0x0, "mem_load_uops_retired.hit_lfb", "MEM_LOAD_UOPS_RETIRED_HIT_LFB"},
	{"bdw_ep", 0x48, 0x01, 0, 0x0, "l1d_pend_miss.pending", NULL},
	{"bdw_ep", 0x48, 0x02, 1, 0x0, "l1d_pend_miss.fb_full", NULL},
	{"bdw_ep", 0xb2, 0x01, 0, 0x0, "offcore_requests_buffer.sq_full", "OFFCORE_REQUESTS_BUFFER_SQ_FULL"},
	{"bdw_ep", 0xa3, 0x06, 6, 0x0, "cycle_activity.stalls_ldm_pending",
	 "CYCLE_ACTIVITY_STALLS_LDM_PENDING"},
	{"bdw_ep", 0xa3, 0x0c, 12, 0x0, "cycle_activity.stalls_l1d_miss", NULL},
	{"bdw_ep", 0xa3, 0x04, 4, 0x0, "cycle_activity.cycles_no_execute",
	 "CYCLE_ACTIVITY_CYCLES_NO_EXECUTE"},
	{"bdw_ep", 0xa2, 0x08, 0, 0x0, "resource_stalls.sb", "RESOURCE_STALLS_SB"},
	/* zen5 */
	{"zen5", 0x29, 0x01, 0, 0x0, "ls_dispatch.ld_dispatch", "LS_DISPATCH_LOADS"},
	{"zen5", 0x29, 0x02, 0, 0x0, "ls_dispatch.store_dispatch", "LS_DISPATCH_STORES"},
	{"zen5", 0x47, 0x01, 0, 0x0, "ls_misal_loads.ma64", "MISALIGNED_LOADS_MA_64B"},
	{"zen5", 0x44, 0xff, 0, 0x0, "ls_any_fills_from_sys.all", NULL},
	{"zen5", 0x43, 0x01, 0, 0x0, "ls_dmnd_fills_from_sys.local_l2", "DEMAND_DATA_CACHE_FILLS_LOCAL_L2"},
	{"zen5", 0x43, 0x02, 0, 0x0, "ls_dmnd_fills_from_sys.local_ccx", "DEMAND_DATA_CACHE_FILLS_LOCAL_CCX"},
	{"zen5", 0x43, 0x08, 0, 0x0, "ls_dmnd_fills_from_sys.dram_io_near",
	 "DEMAND_DATA_CACHE_FILLS_DRAM_IO_NEAR"},
	{"zen5", 0x43, 0x40, 0, 0x0, "ls_dmnd_fills_from_sys.dram_io_far",
	 "DEMAND_DATA_CACHE_FILLS_DRAM_IO_FAR"},
	{"zen5", 0x44, 0x50, 0, 0x0, "ls_any_fills_from_sys.far_all", NULL},
	{"zen5", 0x5a, 0xdf, 0, 0x0, "ls_hw_pf_dc_fills.all", "HWPREF_DATA_CACHE_FILLS_ALL"},
	{"zen5", 0x41, 0x07, 0, 0x0, "ls_mab_alloc.load_store_allocations", "LS_MAB_ALLOC_LD_ST"},
	{"zen5", 0x5f, 0x00, 0, 0x0, "ls_alloc_mab_count", "ALLOCATED_DC_MISSES"},
	{"zen5", 0x60, 0x80, 0, 0x0, "l2_request_g1.rd_blk_l", "REQUESTS_TO_L2_GRP1_RD_BLOCK_L"},
	{"zen5", 0x60, 0x40, 0, 0x0, "l2_request_g1.rd_blk_x", "REQUESTS_TO_L2_GRP1_RD_BLOCK_X"},
	{"zen5", 0x64, 0x08, 0, 0x0, "l2_cache_req_stat.ls_rd_blk_c",
	 "CORE_TO_L2_CACHE_REQUESTS_LS_READ_BLK_C"},
	{"zen5", 0x165, 0xde, 0, 0x0, "l2_fill_rsp_src.all", NULL},
	{"zen5", 0x72, 0xff, 0, 0x0, "l2_pf_miss_l2_l3.l1_dc_l2_hwpf", "L2_PF_MISS_IN_L3_ALL"},
	{"zen5", 0xd6, 0xa2, 0, 0x0, "ex_no_retire.load_not_complete", NULL},
	{"zen5", 0xd6, 0x02, 0, 0x0, "ex_no_retire.not_complete", "CYCLES_NO_RETIRE_LOAD_ALU_NOT_COMPLETE"},
	{"zen5", 0x1a0, 0x1e, 0, 0x0, "de_no_dispatch_per_slot.backend_stalls",
	 "DISPATCH_STALLS_PER_SLOT_BACKEND"},
	/* zen4: no perf names (see above), LIKWID's from perfmon_zen4_events.txt */
	{"zen4", 0x29, 0x01, 0, 0x0, NULL, "LS_DISPATCH_LOADS"},
	{"zen4", 0x29, 0x02, 0, 0x0, NULL, "LS_DISPATCH_STORES"},
	{"zen4", 0x47, 0x01, 0, 0x0, NULL, "MISALIGNED_LOADS_MA_64B"},
	{"zen4", 0x43, 0x01, 0, 0x0, NULL, "DEMAND_DATA_CACHE_FILLS_LOCAL_L2"},
	{"zen4", 0x43, 0x02, 0, 0x0, NULL, "DEMAND_DATA_CACHE_FILLS_LOCAL_CCX"},
	{"zen4", 0x43, 0x08, 0, 0x0, NULL, "DEMAND_DATA_CACHE_FILLS_DRAM_IO_NEAR"},
	{"zen4", 0x43, 0x40, 0, 0x0, NULL, "DEMAND_DATA_CACHE_FILLS_DRAM_IO_FAR"},
	{"zen4", 0x41, 0x3f, 0, 0x0, NULL, "LS_MAB_ALLOC_LD_ST"},
	{"zen4", 0x5f, 0x00, 0, 0x0, NULL, "COUNT_OF_ALLOC_MABS"},
	{"zen4", 0x60, 0x80, 0, 0x0, NULL, "REQUESTS_TO_L2_GRP1_RD_BLOCK_L"},
	{"zen4", 0x60, 0x40, 0, 0x0, NULL, "REQUESTS_TO_L2_GRP1_RD_BLOCK_X"},
	{"zen4", 0x64, 0x08, 0, 0x0, NULL, "CORE_TO_L2_CACHE_REQUESTS_LS_READ_BLK_C"},
	{"zen4", 0x72, 0xff, 0, 0x0, NULL, "L2_PF_MISS_IN_L3"},
	{"zen4", 0xae, 0x02, 0, 0x0, NULL, "DISPATCH_RESOURCE_STALL_CYCLES_1_LOAD_QUEUE"},
	{"zen4", 0x1a0, 0x1e, 0, 0x0, NULL, "DISPATCH_STALLS_PER_SLOT_BACKEND"},
	/* gnr */
	{"gnr", 0xd0, 0x81, 0, 0x0, "mem_inst_retired.all_loads", "MEM_INST_RETIRED_ALL_LOADS"},
	{"gnr", 0xd0, 0x82, 0, 0x0, "mem_inst_retired.all_stores", "MEM_INST_RETIRED_ALL_STORES"},
	{"gnr", 0x51, 0x01, 0, 0x0, "l1d.replacement", "L1D_REPLACEMENT"},
	{"gnr", 0xd0, 0x41, 0, 0x0, "mem_inst_retired.split_loads", "MEM_INST_RETIRED_SPLIT_LOADS"},
	{"gnr", 0x24, 0xe1, 0, 0x0, "l2_rqsts.all_demand_data_rd", "L2_RQSTS_ALL_DEMAND_DATA_RD"},
	{"gnr", 0x24, 0xe2, 0, 0x0, "l2_rqsts.all_rfo", "L2_RQSTS_ALL_RFO"},
	{"gnr", 0x25, 0x1f, 0, 0x0, "l2_lines_in.all", "L2_LINES_IN_ALL"},
	{"gnr", 0x26, 0x02, 0, 0x0, "l2_lines_out.non_silent", "L2_LINES_OUT_NON_SILENT"},
	{"gnr", 0x23, 0x40, 0, 0x0, "l2_trans.l2_wb", "L2_TRANS_L2_WB"},
	{"gnr", 0x2e, 0x41, 0, 0x0, "longest_lat_cache.miss", "LONGEST_LAT_CACHE_MISS"},
	{"gnr", 0xd1, 0x08, 0, 0x0, "mem_load_retired.l1_miss", "MEM_LOAD_RETIRED_L1_MISS"},
	{"gnr", 0xd1, 0x04, 0, 0x0, "mem_load_retired.l3_hit", "MEM_LOAD_RETIRED_L3_HIT"},
	{"gnr", 0xd1, 0x20, 0, 0x0, "mem_load_retired.l3_miss", "MEM_LOAD_RETIRED_L3_MISS"},
	{"gnr", 0xd3, 0x01, 0, 0x0, "mem_load_l3_miss_retired.local_dram",
	 "MEM_LOAD_L3_MISS_RETIRED_LOCAL_DRAM"},
	{"gnr", 0xd3, 0x02, 0, 0x0, "mem_load_l3_miss_retired.remote_dram",
	 "MEM_LOAD_L3_MISS_RETIRED_REMOTE_DRAM"},
	{"gnr", 0x2a, 0x01, 0, 0x3f003c4477, "ocr.reads_to_core.l3_hit", NULL},
	{"gnr", 0x2b, 0x01, 0, 0x3f33004477, "ocr.reads_to_core.remote", NULL},
	{"gnr", 0xd1, 0x40, 0, 0x0, "mem_load_retired.fb_hit", "MEM_LOAD_RETIRED_FB_HIT"},
	{"gnr", 0x48, 0x01, 0, 0x0, "l1d_pend_miss.pending", "L1D_PEND_MISS_PENDING"},
	{"gnr", 0x48, 0x02, 0, 0x0, "l1d_pend_miss.fb_full", "L1D_PEND_MISS_FB_FULL"},
	{"gnr", 0x47, 0x05, 5, 0x0, "memory_activity.stalls_l2_miss", "MEMORY_ACTIVITY_STALLS_L2_MISS"},
	{"gnr", 0x47, 0x09, 9, 0x0, "memory_activity.stalls_l3_miss", "MEMORY_ACTIVITY_STALLS_L3_MISS"},
	/* instructions, for PAPI_TOT_INS (skylakex inst_retired.any_p; amdzen2/amdzen3 ex_ret_instr, the
	   amdzen5 JSON's ex_ret_instr; LIKWID's RETIRED_INSTRUCTIONS on every Zen) */
	{"zen2", 0xc0, 0x00, 0, 0x0, "ex_ret_instr", "RETIRED_INSTRUCTIONS"},
	{"zen3", 0xc0, 0x00, 0, 0x0, "ex_ret_instr", "RETIRED_INSTRUCTIONS"},
	{"zen4", 0xc0, 0x00, 0, 0x0, NULL, "RETIRED_INSTRUCTIONS"},
	{"zen5", 0xc0, 0x00, 0, 0x0, "ex_ret_instr", "RETIRED_INSTRUCTIONS"},
	{"skx", 0xc0, 0x00, 0, 0x0, "inst_retired.any_p", "INST_RETIRED_ANY"},
	/* icelakex and sapphirerapids: inst_retired.any_p (PERF_CPUID=GenuineIntel-6-6A-0 / -8F-0 perf list
	   --details: cpu/event=0xc0/); LIKWID's PMC name for 0xC0/0x00 there, INST_RETIRED_ANY_P */
	{"icx", 0xc0, 0x00, 0, 0x0, "inst_retired.any_p", "INST_RETIRED_ANY_P"},
	{"spr", 0xc0, 0x00, 0, 0x0, "inst_retired.any_p", "INST_RETIRED_ANY_P"},
	/* graniterapids: the architectural event as on spr; LIKWID's perfmon_graniterapids_events.txt
	   INST_RETIRED_ANY_P (0xC0/0x00) */
	{"gnr", 0xc0, 0x00, 0, 0x0, "inst_retired.any_p", "INST_RETIRED_ANY_P"},
};

/* Uncore events in perf syntax that LIKWID counts on its own box counters, with the counter class of
   the EVENT line (perfmon_<arch>_events.txt): data fabric DFC, AMD L3 CPMC, Intel memory controller
   MBOX. */
static const struct out_uncore_name uncore[] = {
	{"zen2", "amd_l3", 0x04, 0xff, "L3_CACHE_REQ", "CPMC"},
	{"zen2", "amd_l3", 0x06, 0x01, "L3_MISS", "CPMC"},
	{"zen2", "amd_df", 0x07, 0x38, "DATA_FROM_LOCAL_DRAM_CHANNEL", "DFC"},
	{"zen2", "amd_df", 0x187, 0x02, "DATA_OUT_TO_REMOTE_0", "DFC"},
	{"zen3", "amd_df", 0x07, 0x38, "DRAM_CHANNEL_0", "DFC"},
	{"zen3", "amd_df", 0x7c7, 0x02, "DF_EVENT_REMOTE_1", "DFC"},
	{"zen4", "amd_l3", 0x04, 0xff, "L3_LOOKUP_STATE_ALL_TYPES", "CPMC"},
	{"zen4", "amd_l3", 0x04, 0x01, "L3_LOOKUP_STATE_MISS", "CPMC"},
	{"zen5", "amd_l3", 0x04, 0xff, "L3_LOOKUP_STATE_ALL_TYPES", "CPMC"},
	{"zen5", "amd_l3", 0x04, 0x01, "L3_LOOKUP_STATE_MISS", "CPMC"},
	/* the memory controllers' CAS counts (perfmon_icelakeX/sapphirerapids_events.txt, class MBOX) */
	{"icx", "uncore_imc", 0x04, 0x0f, "CAS_COUNT_RD", "MBOX"},
	{"icx", "uncore_imc", 0x04, 0x30, "CAS_COUNT_WR", "MBOX"},
	{"spr", "uncore_imc", 0x05, 0xcf, "CAS_COUNT_RD", "MBOX"},
	{"spr", "uncore_imc", 0x05, 0xf0, "CAS_COUNT_WR", "MBOX"},
	/* graniterapids: one CAS event per sub-channel scheduler (perfmon_graniterapids_events.txt) */
	{"gnr", "uncore_imc", 0x05, 0xcf, "CAS_COUNT_SCH0_RD", "MBOX"},
	{"gnr", "uncore_imc", 0x06, 0xcf, "CAS_COUNT_SCH1_RD", "MBOX"},
	{"gnr", "uncore_imc", 0x05, 0xf0, "CAS_COUNT_SCH0_WR", "MBOX"},
};

const struct out_uncore_name *out_uncore_lookup(const char *arch, const char *pmu, unsigned event,
						unsigned umask)
{
	for (size_t i = 0; i < sizeof uncore / sizeof uncore[0]; i++)
		if (!strcmp(uncore[i].arch, arch) && !strcmp(uncore[i].pmu, pmu) &&
		    uncore[i].event == event && uncore[i].umask == umask)
			return &uncore[i];
	return NULL;
}

/* LIKWID's directory for an architecture's groups (its perfgroups/ names). */
static const struct {
	const char *arch, *dir;
} likwid_dirs[] = {{"zen2", "zen2"},        {"zen3", "zen3"},         {"zen4", "zen4"}, {"zen5", "zen5"},
		   {"skx", "skylakeX"},     {"icx", "ICX"},           {"spr", "SPR"},   {"gnr", "GNR"},
		   {"hsw_ep", "haswellEP"}, {"bdw_ep", "broadwellEP"}};

const struct out_event_name *out_event_lookup(const char *arch, const struct out_hw *hw)
{
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const struct out_event_name *n = &names[i];
		if (!strcmp(n->arch, arch) && n->event == hw->event && n->umask == hw->umask &&
		    n->cmask == hw->cmask && n->offcore == hw->config1 && !hw->inv && !hw->edge)
			return n;
	}
	return NULL;
}

const char *out_likwid_dir(const char *arch)
{
	for (size_t i = 0; i < sizeof likwid_dirs / sizeof likwid_dirs[0]; i++)
		if (!strcmp(likwid_dirs[i].arch, arch))
			return likwid_dirs[i].dir;
	return NULL;
}

/* "pmu=cpu,type=4,config=0x5f44" or "papi=0x4000...,component=perf_event,config=0x129": the x86
   PERFEVTSEL layout, the same on AMD and Intel (AMD's event bits 8-11 sit in config bits 32-35). */
int out_hw_decode(const char *encoding, struct out_hw *hw)
{
	const char *c = strstr(encoding, "config=");
	const char *c1 = strstr(encoding, "config1=");
	const char *pmu = strstr(encoding, "pmu=");
	unsigned long long config;

	memset(hw, 0, sizeof *hw);
	if (!c || (c > encoding && c[-1] != ','))
		return -1;
	if (pmu && strncmp(pmu, "pmu=cpu,", 8))
		return -1; /* an uncore PMU: its own layout */
	if (!pmu && !strstr(encoding, "type=4,") && !strstr(encoding, "component=perf_event"))
		return -1; /* a generic or software event */
	config = strtoull(c + 7, NULL, 0);
	hw->event = (unsigned)((config & 0xff) | ((config >> 24) & 0xf00));
	hw->umask = (unsigned)((config >> 8) & 0xff);
	hw->edge = (unsigned)((config >> 18) & 1);
	hw->inv = (unsigned)((config >> 23) & 1);
	hw->cmask = (unsigned)((config >> 24) & 0xff);
	hw->config1 = c1 ? strtoull(c1 + 8, NULL, 0) : 0;
	return 0;
}
