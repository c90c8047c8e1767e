/* Google Benchmark's JSON, as `bench` imports it: its NaN and Infinities
 * made null, then its context and every row read by SQLite's JSON
 * functions. The file is the benchmark binary's output: outside bytes. */
#include "db.h"
#include "escape.h"
#include "fuzz.h"
#include "query.h"

#include <sqlite3.h>

static int row(void *arg, const struct gbench_row *r)
{
	(void)arg;
	/* what import_row reads of each */
	size_t n = (r->run_name ? strlen(r->run_name) : 0) + (r->time_unit ? strlen(r->time_unit) : 0);
	for (int i = 0; i < r->ncounters; i++)
		n += strlen(r->counters[i].key);
	return n > (size_t)1 << 40; /* never: the lengths are read */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct db db;
	if (!db.h && sqlite3_open(":memory:", &db.h) != SQLITE_OK)
		abort();
	size_t len;
	char *json = json_nonfinite_to_null((const char *)data, size, &len);
	if (!json)
		return 0;
	char version[64], build[64];
	if (db_gbench_context(&db, json, len, version, sizeof(version), build, sizeof(build)) == 0)
		db_gbench_rows_each(&db, json, len, row, NULL);
	free(json);
	return 0;
}
