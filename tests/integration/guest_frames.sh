# A guest's frames are outside bytes: a guest (here a stand-in for QEMU
# that writes a valid stream of hostile frames) may add its own facts
# and metrics, but never replace the host's attributes (vm_accel,
# vm_kernel), add a sample to one the host measured (vm_boot_to_end_s),
# or stand one metric sent fifty times for fifty repetitions.
. "$(dirname "$0")/../lib.sh"
db=$tmp/r/rb.db
mkdir -p "$tmp/bin"
python3 - "$tmp/bzImage" <<'PY'
import sys
img = bytearray(0x400)
img[0x202:0x206] = b"HdrS"
img[0x20e:0x210] = (0x100).to_bytes(2, "little")  # kernel_version at 0x300
img[0x300:0x311] = b"6.1.0-fake (test)"
open(sys.argv[1], "wb").write(img)
PY
cat >"$tmp/bin/qemu-system-x86_64" <<'PY'
#!/usr/bin/env python3
import sys, zlib
a = sys.argv
con, res = [a[i][5:] for i in range(1, len(a)) if a[i - 1] == "-serial" and a[i].startswith("file:")]
frames = ["begin fake", "info vm_accel kvm", "info vm_kernel evil 9.9", "info vm_end exited",
          "info guest_note from the guest", "metric vm_boot_to_end_s 999 s"]
frames += ["metric jobs_per_min %d jobs/min" % (100 + i) for i in range(50)]
frames += ["metric users 4 users", "unavailable users twice"]
frames.append("end %d ok" % (len(frames) + 1))
with open(res, "w") as f:
    for seq, p in enumerate(frames):
        f.write("@RB1 %d %d %08x %s\n" % (seq, len(p), zlib.crc32(p.encode()), p))
open(con, "w").write("a fake guest's console\n")
PY
chmod +x "$tmp/bin/qemu-system-x86_64"
cat >"$tmp/g.conf" <<CONF
target = vm
kernel = $tmp/bzImage
vm_accel = tcg
workloads = aim7
users = 4
seed = $marker
CONF
PATH=$tmp/bin:$PATH "$BIN" --db "$db" run "$tmp/g.conf" >"$tmp/out" 2>&1 || fail "the fake guest's run failed: $(tail -n 5 "$tmp/out")"
attr() { sql "$db" "select value from point_attrs where key = '$1'"; }
[[ $(attr vm_accel) == tcg ]] || fail "the guest replaced vm_accel: '$(attr vm_accel)'"
[[ $(attr vm_kernel) == "bzImage 6.1.0-fake" ]] || fail "the guest replaced vm_kernel: '$(attr vm_kernel)'"
[[ $(attr vm_end) == exited ]] || fail "the guest replaced vm_end: '$(attr vm_end)'"
[[ $(attr guest_note) == "from the guest" ]] || fail "the guest's own fact was lost: '$(attr guest_note)'"
[[ $(sql "$db" "select count(*) || ' ' || min(value) from results where metric = 'jobs_per_min'") == "1 100.0" ]] ||
	fail "a metric sent 50 times: $(sql "$db" "select count(*), min(value), max(value) from results where metric = 'jobs_per_min'")"
[[ $(sql "$db" "select count(*) from results where metric = 'vm_boot_to_end_s' and value != 999") == 1 &&
	$(sql "$db" "select count(*) from results where metric = 'vm_boot_to_end_s'") == 1 ]] ||
	fail "the guest added to the host's vm_boot_to_end_s: $(sql "$db" "select value from results where metric = 'vm_boot_to_end_s'")"
[[ $(sql "$db" "select count(*) from unavailable where metric = 'users'") == 0 ]] || fail "a measured metric was also said unavailable"
echo "a guest's frames: its own facts and metrics once, never the host's"
