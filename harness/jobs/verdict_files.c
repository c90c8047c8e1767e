/* A comparison's verdicts in files (verdict_files.h). */
#include "verdict_files.h"
#include "report.h"
#include "run_here.h"
#include "util.h"
#include "verdicts.h"

#include <limits.h>
#include <stdio.h>

int verdict_files(const char *who, const char *junit, const char *markdown, struct db *db, int64_t run, int n,
		  const struct comparison *c, const struct side *a, const struct side *b, const char *trend_href)
{
	int rc = 0;
	if (junit && verdicts_junit_n(junit, n, c, a, b) < 0) {
		rb_error("%s: --junit %s: cannot write it", who, junit);
		rc = 2;
	}
	if (markdown && verdicts_markdown_n(markdown, n, c, a, b) < 0) {
		rb_error("%s: --markdown %s: cannot write it", who, markdown);
		rc = 2;
	}
	char dir[PATH_MAX], name[32], report[PATH_MAX + 100] = "";
	snprintf(name, sizeof(name), "run-%lld", (long long)run);
	if (run > 0 && results_dir(db->path, name, dir, sizeof(dir)) == 0 &&
	    report_generate_verdicts(db, run, dir, report, sizeof(report), c, a, b, n, trend_href) == 0)
		printf("report: %s\n", rb_path_shown(report, dir, sizeof(dir)));
	return rc;
}
