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

# A database of a newer rmapbench is refused by every command before
# anything is written to it: not even its journal mode changes.
newer=$tmp/newer/rb.db
mkdir -p "$tmp/newer"
"$BIN" --db "$newer" engine scenario dangling-anon-vma --variant avc >/dev/null 2>&1 || fail "a run for the newer db"
v=$(sql "$newer" "PRAGMA user_version")
sql "$newer" "PRAGMA journal_mode = DELETE; PRAGMA user_version = $((v + 5))" >/dev/null
rm -f "$newer-wal" "$newer-shm"
sum=$(sha256sum <"$newer")
for cmd in runs "show 1"; do
	"$BIN" --db "$newer" $cmd >"$tmp/out" 2>"$tmp/err" && fail "'$cmd' read a newer database"
	grep -q "schema version $((v + 5)) is newer than this rmapbench knows" "$tmp/err" || fail "'$cmd': $(cat "$tmp/err")"
done
[[ $(sha256sum <"$newer") == "$sum" && ! -e "$newer-wal" ]] || fail "a newer database was changed ($(sql "$newer" "PRAGMA journal_mode"))"

# Names from a merged database are outside bytes: a workload named with a
# terminal's escape (a title, a cleared screen), bytes that are not UTF-8
# and a spreadsheet formula, and a value of inf. Each output writes them
# as its format can carry them: '?' on a terminal, U+FFFD in JSON, '?' in
# JUnit's XML, entities in Markdown, a quoted formula in CSV, null for inf.
hdb=$tmp/names/rb.db
mkdir -p "$tmp/names"
"$BIN" --db "$hdb" engine walkcost --variant avc --children 10 --pages 4 >/dev/null 2>&1 || fail "walkcost"
"$BIN" --db "$hdb" engine walkcost --variant legacy --children 10 --pages 4 >/dev/null 2>&1 || fail "walkcost"
evil=$(printf 'w\033]0;owned\007\033[2J<b>x</b>\377')
sql "$hdb" "UPDATE points SET workload = CAST(X'$(printf '%s' "$evil" | od -An -tx1 | tr -d ' \n')' AS TEXT)"
sql "$hdb" "UPDATE results SET metric = '=HYPERLINK(\"x\")' WHERE metric = 'rmap_walks'"
sql "$hdb" "UPDATE results SET value = 9e999 WHERE metric = 'rmap_vmas_visited' AND run_id = 2"
for out in "show 1" "compare 1 2"; do
	"$BIN" --db "$hdb" $out >"$tmp/o" 2>&1
	! grep -q $'\033\|\007' "$tmp/o" || fail "'$out' printed a terminal escape: $(grep -a -m1 owned "$tmp/o" | od -c | head -3)"
	grep -q 'w?\]0;owned??\[2J' "$tmp/o" || fail "'$out' lost the name: $(grep -a -m1 owned "$tmp/o")"
done
"$BIN" --db "$hdb" compare 1 2 --junit "$tmp/n.xml" --markdown "$tmp/n.md" >/dev/null 2>&1
python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$tmp/n.xml" || fail "the JUnit file is not XML a parser reads"
grep -q '&lt;b&gt;x&lt;/b&gt;' "$tmp/n.md" && ! grep -q '<b>' "$tmp/n.md" || fail "raw HTML reached the Markdown: $(grep owned "$tmp/n.md" | head -2)"
"$BIN" --db "$hdb" export 2 --format json >"$tmp/n.json" || fail "json export"
python3 - "$tmp/n.json" <<'PY' || fail "the JSON export: $(head -c 300 "$tmp/n.json")"
import json, sys
raw = open(sys.argv[1], "rb").read()
raw.decode("utf-8")  # strict: every byte UTF-8
d = json.loads(raw, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
vals = [r["value"] for r in d["results"] if r["metric"] == "rmap_vmas_visited"]
assert vals and all(v is None for v in vals), vals
assert any(r["workload"].endswith("</b>\ufffd") for r in d["results"]), d["results"][0]["workload"]
PY
"$BIN" --db "$hdb" export 2 --format csv | grep -q ",\"'=HYPERLINK(\"\"x\"\")\"," || fail "a formula reached the CSV as one"
# A merged database is outside bytes: a 'runs' that is a recursive VIEW
# (it spun forever) is refused by name, nothing merged; a baseline pin it
# brings is said; a foreign file with user_version 1 is refused untouched,
# its journal mode included.
mdb=$tmp/merge/main.db
mkdir -p "$tmp/merge"
"$BIN" --db "$mdb" engine walkcost --variant avc --children 4 --pages 2 >/dev/null 2>&1 || fail "walkcost into main"
odb=$tmp/merge/other.db
"$BIN" --db "$odb" engine walkcost --variant legacy --children 4 --pages 2 >/dev/null 2>&1 || fail "walkcost into other"
vdb=$tmp/merge/view.db
cp "$odb" "$vdb"
sql "$vdb" "ALTER TABLE runs RENAME TO runs_real; CREATE VIEW runs AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x AS id FROM c" >/dev/null
before=$(sql "$mdb" "select count(*) from runs")
timeout 60 "$BIN" --db "$mdb" db merge "$vdb" >"$tmp/out" 2>"$tmp/err"
rc=$?
[[ $rc == 2 ]] || fail "a database whose runs is a recursive view: exit $rc, not 2 ($(cat "$tmp/err"))"
grep -q "view.db: its 'runs' is not a table: refused, nothing merged" "$tmp/err" || fail "view: $(cat "$tmp/err")"
[[ $(sql "$mdb" "select count(*) from runs") == "$before" ]] || fail "a refused merge changed the database"
uuid=$(sql "$odb" "select uuid from runs limit 1")
sql "$odb" "INSERT INTO baselines (suite, fingerprint, run_uuid, set_at) VALUES ('ci', 'x', '$uuid', 'now')" >/dev/null ||
	fail "cannot pin a baseline in the other database"
"$BIN" --db "$mdb" db merge "$odb" >"$tmp/out" 2>"$tmp/err" || fail "merge: $(cat "$tmp/err")"
grep -q "other.db: brought 1 baseline pins" "$tmp/out" || fail "the merge did not say it brought a pin: $(cat "$tmp/out")"
fdb=$tmp/merge/foreign.db
sql "$fdb" "CREATE TABLE notes (x); PRAGMA user_version = 1" >/dev/null
sum=$(sha256sum <"$fdb")
"$BIN" --db "$fdb" runs >"$tmp/out" 2>"$tmp/err" && fail "a foreign database with user_version 1 was read"
grep -q "an SQLite database of another program" "$tmp/err" || fail "foreign: $(cat "$tmp/err")"
[[ $(sha256sum <"$fdb") == "$sum" && ! -e "$fdb-wal" && $(sql "$fdb" "PRAGMA journal_mode") == delete ]] ||
	fail "a foreign database was switched to WAL before it was refused"
echo "concurrent creation, foreign databases, read-only filesystems, an empty path, hostile merges: all handled"
