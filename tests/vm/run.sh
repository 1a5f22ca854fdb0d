#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs the VM scenarios: boots Debian's kernel under qemu-system-x86_64 (TCG;
# the host has no KVM and cannot load modules) once per group of scenarios,
# and prints TAP-ish lines per scenario and a summary:
#
#	ok 1 - dm-stripe-fio-verify
#	not ok 2 - raid0-fio-verify-mixed-sizes
#	ok 3 - raid0-filesystems-survive-remount # SKIP target fanraid missing
#	1 passed, 1 failed, 1 skipped
#
# Usage: run.sh [SCENARIO...]      default: every tests/vm/*.sh scenario
#                                  but those with a "# manual:" line
#        run.sh --shell [SCENARIO...]  serial console shell (after SCENARIOs)
#        run.sh --self-test        the runner must report planted failures
#
# A scenario picks its VM with a "# group: NAME" line (default: main) and
# its time budget with "# timeout: SECONDS" (default 300). "# disks: NxMiB"
# attaches N raw virtio disks (/dev/vda...) that outlive the VM, and
# "# boots: 2" boots its group twice on them: the scenario runs in both,
# with VMTEST_BOOT=1 and 2, so it can crash the first boot and check what
# the second finds; such a scenario needs a group of its own. "# cpus: N"
# boots its group with N vCPUs (default 2; the largest a group's scenarios
# ask for), for code whose state is per CPU. Groups boot
# largest budget first, VM_JOBS=N at once (default 2). VM_APPEND adds to
# the kernel command line; its NAME=value words without a dot reach the
# scenarios as environment (VM_APPEND="FUZZ_SEED=123"). Logs:
# build/vm/logs/<run>/.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export BUILD=${BUILD:-$top/build}
vmdir=$BUILD/vm
jobs=${VM_JOBS:-2}
mem=${VM_MEM:-2048}

die() { echo "vmtest: $*" >&2; exit 2; }

mode=run
case "${1:-}" in
--shell) mode=shell; shift ;;
--self-test) mode=selftest; shift ;;
-h | --help) sed -n '3,/^[^#]/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac

command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (make deps)"
kver=$("$here/initramfs.sh" kver) || exit 2
kernel=/boot/vmlinuz-$kver
[ -r "$kernel" ] || die "$kernel not readable"
mkdir -p "$vmdir"
"$here/initramfs.sh" base "$vmdir/base.cpio" || die "base initramfs failed"
# Scenarios that need bad sectors fail without it; the rest still run.
"$here/dust/build.sh" "$BUILD/dust" || echo "vmtest: dm-dust not built: read-repair scenarios will fail" >&2
"$here/nullb/build.sh" "$BUILD/nullb" || echo "vmtest: null_blk variants not built: the throttle-stall scenario will fail" >&2
"$here/blkid/build.sh" "$BUILD/blkid" || echo "vmtest: blkid with the fanraid prober not built: its scenario will fail" >&2

scenario_field() { # FILE KEY DEFAULT
	local v
	v=$(sed -n "s/^# $2: *\([^ ]*\).*/\1/p" "$1" | head -n1)
	echo "${v:-$3}"
}

# Scenarios to run, as paths.
declare -a paths=()
if [ "$mode" = selftest ]; then
	paths=("$here"/selftest/*.sh)
elif [ $# -gt 0 ]; then
	for s in "$@"; do
		s=${s##*/}
		s=${s%.sh}
		[ -f "$here/$s.sh" ] || die "no scenario $s"
		paths+=("$here/$s.sh")
	done
elif [ "$mode" = run ]; then
	for f in "$here"/*.sh; do
		case "${f##*/}" in initramfs.sh | run.sh | lib.sh) continue ;; esac
		# "# manual: WHY": run only when named (make check leaves it out)
		if [ -n "$(scenario_field "$f" manual "")" ]; then
			echo "# not in the default run (run it by name): $(basename "$f" .sh): $(sed -n 's/^# manual: *//p' "$f" | head -n1)"
			continue
		fi
		paths+=("$f")
	done
fi

# Several runs may share the tree (helpers, CI): the id and the image
# directory are per run.
run_id=$(date +%Y%m%d-%H%M%S)-$$
[ "$mode" = selftest ] && run_id=$run_id-selftest
logdir=$vmdir/logs/$run_id
mkdir -p "$logdir"
ln -sfn "$run_id" "$vmdir/logs/latest"

# no_timer_check: under TCG on a loaded host the kernel's boot-time test of
# the IO-APIC timer can miss its window and panic ("IO-APIC + timer doesn't
# work"); the emulated timer is fine, so the test is skipped.
# clocksource=tsc tsc=reliable: the guest's TSC is the host's counter, but
# the boot-time check across vCPUs calls it unsynchronized, and every read
# of the emulated HPET the kernel would fall back to (each time stamp of
# the block layer, each of fio's clock_gettime calls) costs microseconds
# (bench/run.sh).
qemu_cmd() { # CPUS KERNEL INITRD APPEND [DISK...]; sets the array qemu
	local disk
	qemu=(qemu-system-x86_64 -m "$mem" -smp "$1" -cpu max,-erms,-fsrm
		-no-reboot -kernel "$2" -initrd "$3"
		-append "console=ttyS0 quiet panic=-1 no_timer_check clocksource=tsc tsc=reliable $4 ${VM_APPEND:-}")
	shift 4
	for disk in "$@"; do
		qemu+=(-drive "file=$disk,if=virtio,format=raw,cache=writeback")
	done
}

# Initramfs for a group: cached base plus a fresh overlay with the plan.
imgdir=$vmdir/run/$run_id
mkdir -p "$imgdir"
trap 'rm -rf "$imgdir"' EXIT
make_image() { # GROUP PLANFILE
	"$here/initramfs.sh" overlay "$imgdir/$1.overlay.cpio" "$2" || return 1
	cat "$vmdir/base.cpio" "$imgdir/$1.overlay.cpio" >"$imgdir/$1.img"
}

if [ "$mode" = shell ]; then
	plan=$imgdir/shell.plan
	: >"$plan"
	for p in "${paths[@]}"; do basename "$p" .sh >>"$plan"; done
	make_image shell "$plan" || die "overlay initramfs failed"
	# ttyS0 is the interactive console and the results channel.
	qemu_cmd 2 "$kernel" "$imgdir/shell.img" "vmtest.mode=shell vmtest.out=ttyS0"
	"${qemu[@]}" -nographic -serial mon:stdio
	exit
fi

# Group the scenarios and give each group a time budget.
declare -A group_plan=() group_budget=() group_boots=() group_disks=() group_cpus=()
for p in "${paths[@]}"; do
	g=$(scenario_field "$p" group main)
	t=$(scenario_field "$p" timeout 300)
	b=$(scenario_field "$p" boots 1)
	group_plan[$g]+="$(basename "$p" .sh)"$'\n'
	group_budget[$g]=$((${group_budget[$g]:-60} + (t + 15) * b))
	[ "$b" -gt "${group_boots[$g]:-1}" ] && group_boots[$g]=$b
	c=$(scenario_field "$p" cpus 2)
	[ "$c" -gt "${group_cpus[$g]:-2}" ] && group_cpus[$g]=$c
	disks=$(scenario_field "$p" disks "")
	[ -n "$disks" ] && group_disks[$g]=$disks
done
# Report in name order; boot the biggest budgets first so that with
# VM_JOBS > 1 a long group does not start last and run alone.
mapfile -t groups < <(printf '%s\n' "${!group_plan[@]}" | sort)
mapfile -t boot_order < <(for g in "${groups[@]}"; do
	echo "${group_budget[$g]} $g"
done | sort -k1,1nr -k2 | cut -d' ' -f2)

# Boots one group's VM (twice for "# boots: 2", on the same disks); leaves
# <group>.console and <group>.results.
run_group() { # GROUP
	local g=$1 plan=$logdir/$1.plan rc qemu boot count size i booted retried
	local -a disks=()
	printf '%s' "${group_plan[$g]}" >"$plan"
	make_image "$g" "$plan" || { echo "vmtest: overlay for $g failed" >"$logdir/$g.results"; return; }
	if [ -n "${group_disks[$g]:-}" ]; then
		count=${group_disks[$g]%x*} size=${group_disks[$g]#*x}
		for ((i = 0; i < count; i++)); do
			disks+=("$imgdir/$g.disk$i")
			truncate -s "${size}M" "$imgdir/$g.disk$i"
		done
	fi
	: >"$logdir/$g.results"
	retried=0
	for ((boot = 1; boot <= ${group_boots[$g]:-1}; boot++)); do
		booted=$(grep -c "^@@ BOOTED" "$logdir/$g.results")
		qemu_cmd "${group_cpus[$g]:-2}" "$kernel" "$imgdir/$g.img" "vmtest.mode=run vmtest.boot=$boot" "${disks[@]}"
		timeout -k 5 "${group_budget[$g]}" "${qemu[@]}" \
			-display none -monitor none -serial "file:$logdir/$g.console" \
			-serial "file:$logdir/$g.results.raw" </dev/null >"$logdir/$g.qemu" 2>&1
		rc=$?
		tr -d '\r' <"$logdir/$g.results.raw" >>"$logdir/$g.results" 2>/dev/null
		rm -f "$logdir/$g.results.raw"
		[ -s "$logdir/$g.qemu" ] && sed 's/^/@@ QEMU: /' "$logdir/$g.qemu" >>"$logdir/$g.results"
		[ $rc = 124 ] && echo "@@ VM-TIMEOUT ${group_budget[$g]}" >>"$logdir/$g.results"
		echo "@@ QEMU-EXIT $rc" >>"$logdir/$g.results"
		# A scenario that ended in the first boot failed before its crash.
		grep -q "^@@ END " "$logdir/$g.results" && break
		# The kernel died before /init ran anything (an emulation hiccup
		# on a loaded host): boot it once more rather than go on to the
		# next boot with the disks left as the one before left them.
		if [ "$(grep -c "^@@ BOOTED" "$logdir/$g.results")" = "$booted" ]; then
			[ $retried = 1 ] && break
			retried=1
			echo "@@ BOOT-RETRY $boot" >>"$logdir/$g.results"
			boot=$((boot - 1))
		fi
	done
	rm -f "${disks[@]}"
}

start=$(date +%s)
running=0
for g in "${boot_order[@]}"; do
	echo "# vm group $g: $(printf '%s' "${group_plan[$g]}" | tr '\n' ' ')"
	if [ "$jobs" -gt 1 ]; then
		run_group "$g" &
		running=$((running + 1))
		if [ "$running" -ge "$jobs" ]; then
			wait -n
			running=$((running - 1))
		fi
	else
		run_group "$g"
	fi
done
wait

# Report, in group order then plan order.
declare -A scenario_path=()
for p in "${paths[@]}"; do
	scenario_path[$(basename "$p" .sh)]=$p
done
# failure_details NAME RESULTS GROUP END: a failed scenario's own last
# lines, the kernel log from its first warning (the first trace says why;
# a later sysrq dump only shows what was stuck) or else its last lines, and
# for a VM that died, the console's tail.
failure_details() {
	local name=$1 res=$2 g=$3 end=$4 section
	section=$(awk -v n="$name" '$0 == "@@ BEGIN " n { on = 1; next }
		on && /^@@ END / { exit } on' "$res" 2>/dev/null)
	echo "# $name:"
	printf '%s\n' "$section" | grep -v -e '^k|' -e '^$' | tail -n 20 | sed 's/^/#   /'
	printf '%s\n' "$section" | grep '^k|' |
		awk '/blocked for more than|WARNING:|BUG:|Oops|Call Trace/ && !on { on = NR }
			{ l[NR] = $0 }
			END { from = on ? on : NR - 14; if (from < 1) from = 1
			      for (i = from; i <= NR && i < from + 40; i++) print l[i] }' |
		sed 's/^/#   /'
	if [ -z "$end" ]; then
		echo "#   console tail ($logdir/$g.console):"
		tail -n 25 "$logdir/$g.console" 2>/dev/null | tr -d '\r' | sed 's/^/#   /'
	fi
}

n=0 passed=0 failed=0 skipped=0 details=""
declare -A result=()
for g in "${groups[@]}"; do
	res=$logdir/$g.results
	while read -r name; do
		[ -n "$name" ] || continue
		n=$((n + 1))
		end=$(grep -m1 "^@@ END $name " "$res" 2>/dev/null)
		set -- $end
		status=${4:-fail} secs=${5:-?}
		shift 5 2>/dev/null || set --
		reason=$*
		if [ -z "$end" ]; then
			if grep -q "^@@ VM-TIMEOUT" "$res" 2>/dev/null; then
				reason="VM timed out after ${group_budget[$g]}s"
			elif grep -q "^@@ BEGIN $name\$" "$res" 2>/dev/null; then
				reason="VM died during the scenario"
			else
				reason="never ran (VM died earlier)"
			fi
		fi
		result[$name]=$status
		case $status in
		pass)
			passed=$((passed + 1))
			echo "ok $n - $name (${secs}s)" ;;
		skip)
			# A skip is not a pass: only a scenario that names, in its
			# "# may-skip:" line, what it may lack is allowed one.
			if [ -n "$(scenario_field "${scenario_path[$name]}" may-skip "")" ]; then
				skipped=$((skipped + 1))
				echo "ok $n - $name # SKIP ${reason:-capability missing}"
			else
				failed=$((failed + 1))
				result[$name]=fail
				echo "not ok $n - $name # skipped without a may-skip line: ${reason:-capability missing}"
			fi ;;
		*)
			failed=$((failed + 1))
			echo "not ok $n - $name (${secs}s) ${reason:+# $reason}"
			# Details after every result line: a CI log cut to its
			# last lines then still shows why.
			details+=$(failure_details "$name" "$res" "$g" "$end")$'\n' ;;
		esac
	done <"$logdir/$g.plan"
done

printf '%s' "$details"
summary="$passed passed, $failed failed"
[ $skipped -gt 0 ] && summary="$summary, $skipped skipped"
echo "# logs: $logdir ($(($(date +%s) - start))s)"
echo "$summary"
[ $n -gt 0 ] || { echo "vmtest: no scenarios ran" >&2; exit 1; }

# Self-test: each planted scenario says with "# expect:" what the runner
# must report; the run as a whole must count as failed.
if [ "$mode" = selftest ]; then
	bad=0
	for p in "${paths[@]}"; do
		name=$(basename "$p" .sh)
		want=$(scenario_field "$p" expect pass)
		if [ "${result[$name]:-}" != "$want" ]; then
			echo "self-test: $name reported ${result[$name]:-nothing}, expected $want"
			bad=1
		fi
	done
	[ $failed -gt 0 ] || { echo "self-test: runner would not have failed"; bad=1; }
	[ $bad = 0 ] && echo "self-test: runner reports pass, fail, skip, timeout and kernel warnings correctly"
	exit $bad
fi
[ $failed -eq 0 ]
