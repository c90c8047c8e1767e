# The vm target for real: Debian's cloud kernel fetched into the cache and
# booted under QEMU (KVM where the probe finds it works, else TCG) for one
# point under memory pressure; then a guest that panics, one that runs past
# its time and one that never speaks, under the watchdog; then the
# one-line errors for a missing image, recipe, package and source.
. "$(dirname "$0")/../lib.sh"
command -v qemu-system-x86_64 >/dev/null || fail "qemu-system-x86_64 missing (scripts/deps.sh installs it)"
db=$tmp/results/rmapbench.db

# 1. One point in the stock kernel, with reclaim: every metric the issue
#    names is measured or explained.
cat >"$tmp/vm.conf" <<CONF
target = vm
kernel = stock
workloads = reclaim
users = 4
jobs_per_user = 2
shared_mib = 32
cow_fraction = 1
passes = 1
vm_mem_mib = 160
vm_zram_mib = 256
point_timeout_s = 120
seed = $marker
CONF
out=$("$BIN" --db "$db" run "$tmp/vm.conf" 2>"$tmp/err") || fail "vm run failed: $(tail -5 "$tmp/err")"
grep -q "^run 1: done" <<<"$out" || fail "no 'run 1: done': $out"
[[ $(sql "$db" "select target || ' ' || kernel_label || ' ' || coalesce(variant, '-') from runs where id = 1") == "vm stock -" ]] || fail "run not recorded as vm, kernel_label stock, no design"
rel=$(sql "$db" "select kernel_release from runs where id = 1")
[[ $rel == *cloud-amd64 ]] || fail "kernel_release is '$rel', not the guest's"
[[ $(sql "$db" "select kernel_config_hash from runs where id = 1") == sha256:* ]] || fail "no config hash"
for m in sys_s jobs_per_min wall_s vm_pswpout rmap_walks rmap_vmas_visited rmap_vmas_per_walk; do
	v=$(sql "$db" "select value from results where run_id = 1 and metric = '$m'")
	[[ -n $v ]] || fail "$m not measured in the guest ($(sql "$db" "select reason from unavailable where metric = '$m'"))"
done
walks=$(sql "$db" "select value from results where run_id = 1 and metric = 'rmap_walks'")
[[ ${walks%.*} -gt 1000 ]] || fail "reclaim walked the rmap only $walks times: no memory pressure?"
per=$(sql "$db" "select value from results where run_id = 1 and metric = 'rmap_vmas_per_walk'")
awk -v p="$per" 'BEGIN { exit !(p >= 1 && p < 3) }' || fail "stock kernel: $per VMAs per walk, expected of order 1"
reason=$(sql "$db" "select reason from unavailable where run_id = 1 and metric = 'lockstat_anon_vma_contentions'")
[[ $reason == *CONFIG_LOCK_STAT* ]] || fail "lock_stat neither measured nor explained: '$reason'"
[[ $(sql "$db" "select value from point_attrs where key = 'vm_accel'") =~ ^(tcg|kvm)$ ]] || fail "accel not recorded"
[[ ! -e $tmp/results/run-1/point-001-initrd.cpio ]] || fail "the initramfs was left behind"

# How each guest below ended is read from what was recorded, never from
# the clock: the panic line, the accelerator, and which watchdog fired.
attr() { sql "$db" "select a.value from point_attrs a join points p on p.id = a.point_id where p.run_id = $1 and a.key = '$2' limit 1"; }
accel=$(attr 1 vm_accel)
echo "the probe chose $accel for run 1"

# 2. A guest that panics (no init) is a failed point at once, under KVM as
#    under TCG: the console's panic line, no watchdog, no fallback to TCG
#    (a KVM guest can sit in its reboot where TCG's QEMU exits). Here under
#    the probe's choice, and under TCG too where the probe chose KVM.
panics=(auto)
[[ $accel == kvm ]] && panics+=(tcg)
for acc in "${panics[@]}"; do
	r=$(($(sql "$db" "select max(id) from runs") + 1))
	"$BIN" --db "$db" --set vm_cmdline=rdinit=/nonexistent --set vm_timeout_s=300 --set vm_accel=$acc --set users=1 \
		run "$tmp/vm.conf" >"$tmp/out2" 2>&1 && fail "a panicking guest ($acc) made a done run"
	err=$(sql "$db" "select error from points where run_id = $r")
	[[ $(sql "$db" "select status from points where run_id = $r") == failed ]] || fail "panicked point ($acc) not failed"
	grep -q "the guest panicked; console: Kernel panic" <<<"$err" || fail "no panic with the console's panic line ($acc): $err"
	[[ $(attr $r vm_end) == panic ]] || fail "a panicked guest ($acc) ended by '$(attr $r vm_end)', not its panic"
	[[ -z $(attr $r vm_accel_fallback) ]] || fail "a panic ($acc) was taken for a KVM hang: $(attr $r vm_accel_fallback)"
	[[ $acc == auto ]] && want=$accel || want=$acc
	[[ $(attr $r vm_accel) == "$want" ]] || fail "the panicked guest ran under $(attr $r vm_accel), not $want"
done

# 3. A guest that runs past its time (a workload of ten minutes): the
#    watchdog kills it at vm_timeout_s, records the failure, and the next
#    point runs.
r=$(($(sql "$db" "select max(id) from runs") + 1))
"$BIN" --db "$db" --set duration_s=600 --set vm_timeout_s=12 --set "users=1 2" \
	run "$tmp/vm.conf" >"$tmp/out3" 2>&1 && fail "a guest past its time made a done run"
[[ $(sql "$db" "select count(*) from points where run_id = $r and status = 'failed' and error like '%ran past 12 s and was killed%'") == 2 ]] ||
	fail "both long points should be recorded as killed: $(sql "$db" "select seq, status, error from points where run_id = $r")"
[[ $(sql "$db" "select status from runs where id = $r") == failed ]] || fail "run $r not failed"
pgrep -f "qemu-system-x86_64.*$tmp" >/dev/null && fail "a QEMU was left running"

# 3b. A guest that is alive but never speaks on its results port (its init
#     is the workload itself, not the agent): the boot deadline ends it.
#     Under an accelerator the probe chose as KVM, that silence is the one
#     case taken for a nested-KVM hang: the point is booted again under TCG.
r=$(($(sql "$db" "select max(id) from runs") + 1))
"$BIN" --db "$db" --set "vm_cmdline=rdinit=/bin/rmapbench-load -- forkstorm users=1 duration_s=600" \
	--set vm_timeout_s=300 --set vm_boot_timeout_s=5 --set users=1 run "$tmp/vm.conf" >"$tmp/out3b" 2>&1 &&
	fail "a guest that never spoke made a done run"
err=$(sql "$db" "select error from points where run_id = $r")
grep -q "sent nothing on its results port within vm_boot_timeout_s=5 s" <<<"$err" || fail "boot deadline: $err"
[[ $(attr $r vm_end) == "boot deadline" ]] || fail "a silent guest ended by '$(attr $r vm_end)'"
if [[ $accel == kvm ]]; then
	grep -q "a KVM guest sent nothing within 5 s of boot: rerun under TCG" <<<"$(attr $r vm_accel_fallback)" ||
		fail "a silent KVM guest was not booted again under TCG: '$(attr $r vm_accel_fallback)'"
	[[ $(attr $r vm_accel) == tcg ]] || fail "the silent guest's second boot was not TCG"
fi
pgrep -f "qemu-system-x86_64.*$tmp" >/dev/null && fail "a QEMU was left running"

# 4. Bad input: one line, naming what is missing; nothing recorded.
runs_before=$(sql "$db" "select count(*) from runs")
"$BIN" --db "$db" --set kernel=/nonexistent/bzImage run "$tmp/vm.conf" 2>"$tmp/e" && fail "a missing image was accepted"
[[ $(wc -l <"$tmp/e") == 1 ]] && grep -q "/nonexistent/bzImage" "$tmp/e" || fail "missing image: $(cat "$tmp/e")"
"$BIN" --db "$db" --set kernel=nosuch run "$tmp/vm.conf" 2>"$tmp/e" && fail "an unknown kernel was accepted"
grep -q "no kernel 'nosuch'" "$tmp/e" || fail "unknown kernel: $(cat "$tmp/e")"
mkdir -p "$tmp/kernels"
cp "$top"/kernels/*.sh "$tmp/kernels/"
printf 'kind = package\npackage = linux-image-rmapbench-nosuch\nmodules =\n' >"$tmp/kernels/gone.kernel"
RMAPBENCH_KERNELS_DIR=$tmp/kernels "$BIN" --db "$db" kernel fetch gone 2>"$tmp/e" && fail "a missing package was fetched"
grep -q "package linux-image-rmapbench-nosuch is unknown to apt" "$tmp/e" || fail "missing package: $(cat "$tmp/e")"
RMAPBENCH_KERNEL_SRC_DIR=$tmp/nosrc "$BIN" kernel build legacy-anon-vma 2>"$tmp/e" && fail "a build without sources ran"
grep -q "linux-source-6.1.tar.xz is missing: install package linux-source-6.1" "$tmp/e" || fail "missing source: $(cat "$tmp/e")"
[[ $(sql "$db" "select count(*) from runs") == "$runs_before" ]] || fail "a refused run was recorded"
"$BIN" --db "$db" kernel list | grep -q "^stock .*cloud-amd64" || fail "kernel list does not show the fetched stock kernel"
exit 0
