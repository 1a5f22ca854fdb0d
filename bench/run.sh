#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs the benchmark scenarios of bench/scenarios and reports them.
#
# Usage: bench/run.sh [--suite demo|full|tune|smoke|bitmap|cpu] [--only ID,ID...] [--out DIR]
#                     [--devices /dev/nvme0n1,... --yes-destroy-data]
#                     [--advise] [--no-report]
#        bench/run.sh --devices /dev/mapper/NAME --advise [--yes-destroy-data]
#
# --advise measures a few settings on one array and prints what to set,
# with the gain it measured (bench/lib/advise.sh). With --devices it runs
# on that existing array here, reading only unless --yes-destroy-data;
# without, in the VM against a fanraid array of 8 simulated SSDs, after
# the suite if one is given.
#
# Default: boots Debian's kernel under QEMU (TCG) with the VM test harness's
# initramfs (tests/vm/initramfs.sh: base image plus its overlay) and a third
# cpio on top carrying bench/, so the harness's /init runs the benchmark as
# its only scenario. Members are null_blk devices modelling SSDs. Results
# come back on the harness's results channel (the second serial port, where
# kernel messages never go) as files between @@FILE/@@EOF markers, each
# checked against its cksum.
#
# With --devices, the same scenarios run on this host against real drives:
# every listed device is overwritten. The host must have dm-fanraid loaded
# (or dm-target/dm-fanraid.ko built, which is then loaded).
#
# Environment: BENCH_VM_MEM (MiB, 6144 for --suite full, else 4096), BENCH_VM_TIMEOUT (seconds the VM
# may run), BENCH_VM_APPEND (more kernel arguments: loglevel=7 puts the
# stacks of hung tasks into console.log, which quiet keeps out; its
# NAME=value words reach the benchmark as environment, as
# BENCH_WATCHDOG=SECONDS: how long one run may take before the stacks of
# blocked tasks are printed, default 900).
#
# Results: results/<timestamp>/ (or --out): fio JSON and a .meta file per
# run, console.log, progress.log, then the report (bench/report.sh).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
export BUILD=${BUILD:-$top/build}

die() { echo "bench: $*" >&2; exit 2; }

suite=full only="" out="" devices="" destroy=0 report=1 advise=0 suite_given=0
while [ $# -gt 0 ]; do
	case "$1" in
	--suite) suite=$2 suite_given=1; shift ;;
	--advise) advise=1 ;;
	--only) only=$2; shift ;;
	--out) out=$2; shift ;;
	--devices) devices=$2; shift ;;
	--yes-destroy-data) destroy=1 ;;
	--no-report) report=0 ;;
	-h | --help) sed -n '4,38p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument: $1 (see --help)" ;;
	esac
	shift
done
case $suite in demo | full | smoke | tune | bitmap | cpu) ;; *) die "unknown suite $suite" ;; esac
# --advise alone runs no suite, only the advice.
[ "$advise" = 1 ] && [ "$suite_given" = 0 ] && [ -z "$only" ] && suite=none
[ -n "$out" ] || out=$top/results/$(date -u +%Y%m%d-%H%M%S)-$([ "$suite" = none ] && echo advise || echo "$suite")
args="--suite $suite${only:+ --only $only}$([ "$advise" = 1 ] && echo " --advise")"

# The results folder, made once the arguments and devices passed checks.
# Never one holding results: the report reads every run in the folder, so
# an earlier run's entries would show up as this run's.
make_out() {
	[ -d "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ] &&
		die "$out holds results already; give --out an empty or new folder"
	mkdir -p "$out" || die "cannot create $out"
	out=$(cd "$out" && pwd)
	case "$out" in "$top"/results/*) ln -sfn "$out" "$top/results/latest" ;; esac
	echo "$args" >"$out/args"
}

# Progress: "[12/20] read-direct-qd32 fanraid N=8 (about 3m10s left)".
# The terminal gets the line, progress.log the line with the time of day.
progress() { # DONE TOTAL ETA ID LAYER N
	local eta=$3 line
	line=$(printf '[%s/%s] %s %s N=%s (about %dm%02ds left)' "$1" "$2" "$4" "$5" \
		"$6" $((eta / 60)) $((eta % 60)))
	echo "$line"
	echo "$(date -u +%H:%M:%S) $line" >>"$out/progress.log"
}

# ------------------------------------------------------- advice, real array
# --devices ARRAY --advise: measures settings on an existing array and
# prints what to set (bench/lib/advise.sh). Reads only, and puts back what
# it changed for a run, unless --yes-destroy-data also lets it write.
if [ -n "$devices" ] && [ "$advise" = 1 ]; then
	[ "$(id -u)" = 0 ] || die "--advise needs root"
	case $devices in *,*) die "--advise takes one array: --devices /dev/mapper/NAME" ;; esac
	[ -b "$devices" ] || die "$devices: not a block device"
	if [ "$destroy" = 1 ]; then
		real=$(readlink -f "$devices")
		grep -q "^$real " /proc/mounts && die "$devices: mounted; --yes-destroy-data refused"
		holders=$(ls "/sys/class/block/${real##*/}/holders" 2>/dev/null)
		[ -z "$holders" ] || die "$devices: in use by $holders; --yes-destroy-data refused"
	fi
	make_out
	extra=()
	[ "$destroy" = 1 ] && extra=(--yes-destroy-data)
	bash "$here/lib/advise.sh" --array "$devices" --out "$out" "${extra[@]}"
	exit $?
fi

# ---------------------------------------------------------------- real drives
if [ -n "$devices" ]; then
	[ "$destroy" = 1 ] || die "--devices overwrites every listed device; add --yes-destroy-data"
	[ "$(id -u)" = 0 ] || die "--devices needs root"
	IFS=, read -r -a devs <<<"$devices"
	for d in "${devs[@]}"; do
		[ -b "$d" ] || die "$d: not a block device"
		real=$(readlink -f "$d")
		if grep -q "^$real " /proc/mounts || lsblk -nro MOUNTPOINT "$real" 2>/dev/null | grep -q .; then
			die "$d: mounted (it or a partition); refusing"
		fi
		holders=$(ls "/sys/class/block/${real##*/}/holders" 2>/dev/null)
		[ -z "$holders" ] || die "$d: in use by $holders; refusing"
		grep -qw "${real##*/}" /proc/swaps && die "$d: used as swap; refusing"
	done
	if ! dmsetup targets 2>/dev/null | grep -q '^fanraid '; then
		if [ -f "$top/dm-target/dm-fanraid.ko" ]; then
			modprobe -a raid6_pq xor 2>/dev/null
			insmod "$top/dm-target/dm-fanraid.ko" ||
				echo "bench: could not load dm-fanraid.ko; fanraid layers will be skipped" >&2
		fi
	fi
	make_out
	echo "bench: real drives ${devices}: results in $out"
	# shellcheck disable=SC2086
	"$here/lib/bench.sh" --devices "$devices" --out "$out" $args 2>&1 |
		tee "$out/console.log" | while IFS= read -r line; do
		case "$line" in
		"@@P "*)
			# shellcheck disable=SC2086
			set -- ${line#@@P }
			progress "$@" ;;
		*) echo "$line" ;;
		esac
	done
	[ "$report" = 1 ] && "$here/report.sh" "$out"
	exit 0
fi

# ------------------------------------------------------------------------ VM
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (make deps)"
make_out
[ -x "$top/tests/vm/initramfs.sh" ] || [ -f "$top/tests/vm/initramfs.sh" ] ||
	die "tests/vm/initramfs.sh missing: the VM harness is needed"
vmdir=$BUILD/vm
bdir=$BUILD/bench
mkdir -p "$vmdir" "$bdir"
kver=$(bash "$top/tests/vm/initramfs.sh" kver) || exit 2
kernel=/boot/vmlinuz-$kver
[ -r "$kernel" ] || die "$kernel not readable"
[ -f "$top/dm-target/dm-fanraid.ko" ] ||
	echo "bench: dm-target/dm-fanraid.ko not built (make module): fanraid layers will be skipped" >&2

bash "$top/tests/vm/initramfs.sh" base "$vmdir/base.cpio" || die "base initramfs failed"
# Members from null_blk_fixed, whose throttle cannot stop for good (bench.sh).
bash "$top/tests/vm/nullb/build.sh" "$BUILD/nullb" ||
	echo "bench: null_blk_fixed not built: members from stock null_blk" >&2
echo "fanraid-bench" >"$bdir/plan"
bash "$top/tests/vm/initramfs.sh" overlay "$bdir/harness.cpio" "$bdir/plan" ||
	die "harness overlay failed"

# The bench overlay: bench/ as /bench, a harness scenario that runs it, and
# the arguments for this run.
root=$(mktemp -d "$bdir/overlay.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bench/lib" "$root/bench/jobs" "$root/tests"
cp "$here/scenarios" "$root/bench/"
cp "$here"/jobs/*.fio "$root/bench/jobs/"
cp "$here"/lib/bench.sh "$here"/lib/advise.sh "$here"/lib/bitmap.sh "$here"/lib/rebuild.sh \
	"$root/bench/lib/"
echo "$args" >"$root/bench/args"
# perf (Debian's linux-perf, built for this kernel) goes in only when an
# entry of the run profiles (perf=1): its 33 MB with libraries would slow
# every other run's boot.
profiled() {
	local e id su
	while read -r e; do
		id=$(echo "$e" | sed -n 's/^id=\([^ ]*\) .*/\1/p')
		su=$(echo "$e" | sed -n 's/.* suite=\([^ ]*\).*/\1/p')
		case ",$only,:,$su," in *",$id,"*:* | ,,:*",$suite,"*) return 0 ;; esac
	done < <(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$here/scenarios" | grep -v '^#' | grep ' perf=1')
	return 1
}
if command -v perf >/dev/null && profiled; then
	# Each at its real path: a directory where the base image has a
	# symlink (/lib -> usr/lib) would replace that link when unpacked,
	# and the modules behind it with it.
	for f in $(command -v perf) $(ldd "$(command -v perf)" | grep -o '/[^ ]*'); do
		d=$(readlink -f "$(dirname "$f")")
		mkdir -p "$root$d"
		cp -L "$f" "$root$d/$(basename "$f")"
	done
fi
cat >"$root/tests/fanraid-bench.sh" <<'EOF'
#!/bin/bash
# Exercise the benchmark plan in /bench/args (written by bench/run.sh).
# timeout: 86400
exec bash /bench/lib/bench.sh --vm --out /tmp/bench-results $(cat /bench/args)
EOF
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) >"$bdir/bench.cpio"
cat "$vmdir/base.cpio" "$bdir/harness.cpio" "$bdir/bench.cpio" >"$bdir/bench.img"

# Memory-backed members keep what is written: the full suite's 16-member
# write entries (2 GiB of member data, 16 fio jobs of 32 MiB buffers each)
# ran a 4 GiB guest out of memory.
mem=${BENCH_VM_MEM:-$([ "$suite" = full ] && echo 6144 || echo 4096)}
echo "bench: VM ($kver, ${mem} MiB, 2 vCPUs, TCG), suite $suite${only:+ ($only)}: results in $out"

# Reads the results channel: progress lines to the terminal, files to $out,
# everything raw to results.log.
collect() {
	local line file="" sum got
	while IFS= read -r line; do
		line=${line%$'\r'}
		printf '%s\n' "$line" >>"$out/results.log"
		case "$line" in
		"| "*) line=${line#| } ;;
		"|") line="" ;;
		"@@ END "*) echo "bench: VM scenario ended: ${line#@@ END }"; continue ;;
		*) continue ;;
		esac
		if [ -n "$file" ]; then
			case "$line" in
			"@@EOF "*)
				sum=${line#@@EOF * }
				got=$(cksum <"$out/$file" | awk '{ print $1, $2 }')
				if [ "$sum" != "$got" ]; then
					echo "bench: $file arrived damaged (cksum $got, sent $sum)" >&2
					mv "$out/$file" "$out/$file.damaged"
				fi
				file="" ;;
			*) printf '%s\n' "$line" >>"$out/$file" ;;
			esac
			continue
		fi
		case "$line" in
		"@@FILE "*)
			file=${line#@@FILE }
			case "$file" in /* | *..*) echo "bench: bad path $file" >&2; file=""; continue ;; esac
			mkdir -p "$(dirname "$out/$file")"
			: >"$out/$file" ;;
		"@@P "*)
			# shellcheck disable=SC2086
			set -- ${line#@@P }
			progress "$@" ;;
		*) echo "$line" ;;
		esac
	done
}

# A guard against a hung VM, not a time limit: on a loaded 2-core host
# the demo took 30 minutes, and 1800 s ended it before its advice.
# -mem-prealloc: guest RAM touched for the first time costs QEMU a host
# page fault per page, so whichever layer first filled the page cache with
# a large file read buffered at half the rate (1 GiB at N=16: the first
# layer 535-564 MiB/s, every later one 1050-1144, whichever came first).
#
# clocksource=tsc tsc=reliable: under TCG the guest's TSC is the host's
# counter, but the boot-time check across vCPUs calls it unsynchronized and
# the kernel falls back to the emulated HPET, whose every read (each of
# fio's clock_gettime calls, each block-layer time stamp) costs the guest
# microseconds: 28% of all samples in a 4 KiB read profile. Servers read
# the TSC, in nanoseconds; with it the same runs did 40-45k 4 KiB reads/s
# against 21-35k.
budget=${BENCH_VM_TIMEOUT:-$([ "$suite" = full ] && echo 21600 || echo 3600)}
timeout -k 5 "$budget" qemu-system-x86_64 -m "$mem" -mem-prealloc -smp 2 -cpu max,-erms,-fsrm \
	-no-reboot -kernel "$kernel" -initrd "$bdir/bench.img" \
	-append "console=ttyS0 quiet panic=-1 clocksource=tsc tsc=reliable vmtest.mode=run${BENCH_VM_APPEND:+ $BENCH_VM_APPEND}" \
	-display none -monitor none -serial "file:$out/console.log" \
	-serial stdio </dev/null 2>"$out/qemu.stderr" | collect
rc=${PIPESTATUS[0]}
[ -s "$out/qemu.stderr" ] || rm -f "$out/qemu.stderr"
[ "$rc" = 124 ] && echo "bench: VM timed out after ${budget}s (BENCH_VM_TIMEOUT)" >&2
grep -q '^@@ END fanraid-bench pass' "$out/results.log" 2>/dev/null ||
	echo "bench: the VM run did not finish cleanly; see $out/results.log and console.log" >&2

[ "$report" = 1 ] && "$here/report.sh" "$out"
exit 0
