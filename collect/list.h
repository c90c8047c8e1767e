/* The collectors, one line each: COLLECTOR(name) names coll_name, defined
 * in collect/collect_name.c. Read by collector.h and registry.c only. */
COLLECTOR(cpu)
COLLECTOR(lock)
COLLECTOR(pfm)
COLLECTOR(vmstat)
COLLECTOR(rmap)
