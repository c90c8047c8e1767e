# Bad input gets one line naming the file, line or flag, a non-zero exit,
# and loses nothing recorded before.
. "$(dirname "$0")/../lib.sh"
db=$tmp/r/rb.db
printf 'users = 2\njobs_per_user = 2\nshared_mib = 2\nseed = %s\n' "$marker" >"$tmp/good.conf"
"$BIN" --db "$db" run "$tmp/good.conf" >/dev/null 2>&1 || fail "the first, good run failed"
before=$(sql "$db" "select count(*) from results")

printf 'users = 2\n# fine\nthis is not a setting\n' >"$tmp/bad.conf"
expect 2 "$tmp/bad.conf:3: expected 'key = value'" "$BIN" --db "$db" run "$tmp/bad.conf"
printf 'workloads = aim7 aim8\n' >"$tmp/wl.conf"
expect 2 "$tmp/wl.conf:1: workloads: unknown workload 'aim8'" "$BIN" --db "$db" run "$tmp/wl.conf"
printf 'users = 2\ncolour = blue\n' >"$tmp/key.conf"
expect 2 "$tmp/key.conf:2: unknown key 'colour'" "$BIN" --db "$db" run "$tmp/key.conf"
expect 2 "$tmp/none.conf: cannot read: No such file or directory" "$BIN" --db "$db" run "$tmp/none.conf"
expect 2 "--set users=lots: users: 'lots' is not an integer" "$BIN" --db "$db" --set users=lots run "$tmp/good.conf"
expect 2 "unknown option '--frobnicate'" "$BIN" --frobnicate runs
expect 2 "unknown command 'explode'" "$BIN" explode
expect 1 "no run '99'" "$BIN" --db "$db" show 99

echo "just some text, not a database" >"$tmp/text.db"
cp "$tmp/text.db" "$tmp/text.db.orig"
expect 1 "$tmp/text.db: not an SQLite database" "$BIN" --db "$tmp/text.db" run "$tmp/good.conf"
cmp -s "$tmp/text.db" "$tmp/text.db.orig" || fail "the non-SQLite file was modified"
expect 1 "$tmp/text.db: not an SQLite database" "$BIN" --db "$tmp/text.db" runs

# A read-only results directory. Root ignores permission bits, so make it
# truly read-only with a private read-only bind mount.
if [[ $(id -u) == 0 ]]; then
	unshare -m true 2>/dev/null || skip "cannot make a mount namespace for a read-only directory"
	ro() { unshare -m bash -c 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" && shift && exec "$@"' _ "$tmp/r" "$@"; }
else
	chmod 555 "$tmp/r"
	ro() { "$@"; }
fi
expect 1 "$db: " ro "$BIN" --db "$db" run "$tmp/good.conf"
grep -qi "read-only" "$tmp/err" || fail "read-only error does not say read-only: $(cat "$tmp/err")"
expect 1 "$tmp/r/fresh.db: " ro "$BIN" --db "$tmp/r/fresh.db" run "$tmp/good.conf"
chmod 755 "$tmp/r"
[[ $(sql "$db" "select count(*) from results") == "$before" ]] || fail "earlier results lost"
[[ $(sql "$db" "select group_concat(status) from runs") == done ]] || fail "earlier run altered: $(sql "$db" "select group_concat(status) from runs")"
[[ $(sql "$db" "pragma integrity_check") == ok ]] || fail "database not intact"
exit 0
