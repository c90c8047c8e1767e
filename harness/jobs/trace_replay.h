/* `replay FILE` as a job: a recorded program (rmapbench record) on the
 * designs side by side. Each design a run (target engine, workload
 * replay:NAME, users 1: a replay is one point, and two recordings of a
 * program must meet in compare whatever their process counts) with its
 * walks and VMAs per walk at the trace's peak and at its end, anon_vmas,
 * chains, the longest chain, bytes per page and the replay's own time;
 * one figure of the designs.
 *
 * The trace is hostile input, read once and bounded (trace_file.h); the
 * replay has a memory budget (max_mib). Every design replays the whole
 * trace before anything is recorded: an error names FILE:LINE and the
 * design, and records nothing. */
#ifndef RMAPBENCH_TRACE_REPLAY_H
#define RMAPBENCH_TRACE_REPLAY_H

#include <stdbool.h>

/* Fits a CI runner beside its other work; the million-operation trace of
 * docs/record-replay.md takes a hundredth of it. */
#define REPLAY_DEFAULT_MAX_MIB 2048

struct trace_replay_opts {
	const char *path;    /* the trace */
	const char *name;    /* the workload's name, or NULL: the file's */
	const char *variant; /* "all" or one design */
	bool check, no_db;   /* the invariant checker after every operation */
	unsigned long max_mib;
};

/* 0, 1 recording failed, 2 usage or a bad trace, 3 a design without
 * known bugs broke an invariant. */
int trace_replay(const struct trace_replay_opts *o, const char *db_path);

#endif
