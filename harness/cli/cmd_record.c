/* `rmapbench record [--out FILE] [--text] -- CMD ARGS...`: the recorder
 * (record/, the rmapbench-record binary beside this one) run on CMD; its
 * exit status is CMD's. */
#include "commands.h"
#include "paths.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

int cmd_record(int argc, char **argv, const char *db_path)
{
	(void)db_path;
	char bin[PATH_MAX];
	if (rb_sibling_binary("RMAPBENCH_RECORD", "rmapbench-record", bin, sizeof(bin)) < 0) {
		rb_error("record: %s is missing or not executable (run 'make')", bin);
		return 2;
	}
	char *args[argc + 2];
	args[0] = bin;
	for (int i = 0; i < argc; i++)
		args[i + 1] = argv[i];
	args[argc + 1] = NULL;
	execv(bin, args);
	rb_error("record: %s: %s", bin, strerror(errno));
	return 2;
}
