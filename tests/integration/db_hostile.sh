#!/usr/bin/env bash
# The database under concurrency and from elsewhere: commands opening a new
# database at once all succeed; another program's SQLite file is refused
# untouched; a database on a read-only filesystem can still be listed,
# shown and exported; an empty --db is a one-line error.
. "$(dirname "$0")/../lib.sh"

# Several commands create the same new database at once.
for round in 1 2 3; do
	db=$tmp/new-$round/rb.db
	pids=()
	for i in 1 2 3 4 5 6; do
		"$BIN" --db "$db" engine scenario dangling-anon-vma --variant avc >"$tmp/c$i.out" 2>&1 &
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || fail "round $round: a concurrent opener failed: $(cat "$tmp/c$((i + 1)).out")"
	done
	[[ $(sql "$db" "SELECT count(*) FROM runs") == 6 ]] || fail "round $round: not every run was recorded"
done

# Another program's database: tables but no version of ours.
foreign=$tmp/foreign.db
sqlite3 "$foreign" "CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('mine');"
sum=$(sha256sum "$foreign")
"$BIN" --db "$foreign" runs >"$tmp/out" 2>"$tmp/err" && fail "a foreign database was listed"
grep -q "another program" "$tmp/err" || fail "no clear error for a foreign database: $(cat "$tmp/err")"
printf 'users = 1\njobs_per_user = 1\n' >"$tmp/c.conf"
"$BIN" --db "$foreign" run "$tmp/c.conf" >"$tmp/out" 2>"$tmp/err" && fail "a run went into a foreign database"
[[ $(sha256sum "$foreign") == "$sum" ]] || fail "the foreign database was changed"
[[ ! -e $foreign-wal && ! -e $foreign-shm ]] || fail "WAL files were made beside the foreign database"
sqlite3 "$foreign" "PRAGMA application_id = 1234; DROP TABLE notes;"
"$BIN" --db "$foreign" runs >"$tmp/out" 2>"$tmp/err" && fail "a database with another application_id was listed"

# A database on a read-only filesystem.
ro=$tmp/ro
mkdir -p "$ro/src" "$ro/mnt"
"$BIN" --db "$ro/src/rb.db" engine scenario chain-order --variant avc >/dev/null 2>&1 || fail "the source run failed"
if mount --bind "$ro/src" "$ro/mnt" 2>/dev/null && mount -o remount,ro,bind "$ro/mnt" 2>/dev/null; then
	trap 'umount "$ro/mnt" 2>/dev/null; cleanup' EXIT
	touch "$ro/mnt/probe" 2>/dev/null && fail "the bind mount is writable"
	"$BIN" --db "$ro/mnt/rb.db" runs >"$tmp/out" 2>"$tmp/err" || fail "runs on a read-only database: $(cat "$tmp/err")"
	grep -q 'engine' "$tmp/out" || fail "runs listed nothing: $(cat "$tmp/out")"
	"$BIN" --db "$ro/mnt/rb.db" show last >/dev/null 2>"$tmp/err" || fail "show on a read-only database: $(cat "$tmp/err")"
	"$BIN" --db "$ro/mnt/rb.db" export 1 --format csv >/dev/null 2>"$tmp/err" ||
		fail "export on a read-only database: $(cat "$tmp/err")"
	umount "$ro/mnt"
else
	echo "no read-only bind mount here (not root?): that part not tried"
fi

"$BIN" --db "" runs >"$tmp/out" 2>"$tmp/err" && fail "--db '' was accepted"
[[ $(wc -l <"$tmp/err") == 1 ]] && grep -q -- "--db: an empty path" "$tmp/err" || fail "--db '': $(cat "$tmp/err")"
echo "concurrent creation, foreign databases, read-only filesystems, an empty path: all handled"
