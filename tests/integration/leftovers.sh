#!/usr/bin/env bash
# A run leaves the machine as it found it: no cgroup of ours (not even the
# parent folder it made), and tracefs mounted only if it was before.
. "$(dirname "$0")/../lib.sh"
[[ $(id -u) == 0 ]] || skip "needs root for cgroups and tracefs"
tracefs_before=$(grep -c ' tracefs ' /proc/mounts)
printf 'users = 2\njobs_per_user = 1\nshared_mib = 1\nseed = %s\ncollectors = cpu lock\n' "$marker" >"$tmp/s.conf"
"$BIN" --db "$tmp/rb.db" run "$tmp/s.conf" >"$tmp/out" 2>&1 || fail "the run failed: $(tail -n 3 "$tmp/out")"
left=$(ls -d /sys/fs/cgroup/*/"$RMAPBENCH_CGROUP_NAME" /sys/fs/cgroup/"$RMAPBENCH_CGROUP_NAME" 2>/dev/null)
[[ -z $left ]] || fail "cgroups left behind: $left"
[[ $(grep -c ' tracefs ' /proc/mounts) == "$tracefs_before" ]] || fail "tracefs mounts: $tracefs_before before, now $(grep ' tracefs ' /proc/mounts)"
echo "no cgroup and no tracefs mount left behind"
