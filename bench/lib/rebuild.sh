# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Sourced by bench.sh: out, mode, S, MEMBERS and SKIP_REASON are its globals.
# shellcheck disable=SC2034,SC2154
#
# The rebuild benchmark (issue 16, "Rebuild"): entries with job=rebuild,
# run by rebuild_one instead of fio's job file. The layer (fanraid-raid6 or
# md-raid6, built as for any entry: in sync, no initial resync) loses
# member 0 and gets it back as a new, empty member:
#   fanraid-raid6  `dmsetup message fail 0`, then the same table reloaded
#                  with the `rebuild 0` feature (what `fanraid replace` loads)
#   md-raid6       `mdadm --fail`, `--remove`, `--zero-superblock`, `--add`
# Both rebuild the whole member at their shipped speed limits. With load=P
# a reader runs meanwhile: random 1 MiB O_DIRECT reads at qd=, capped at P%
# of what the N-1 survivors can deliver together (the member cap x N-1),
# started before the failure so both layers meet the same load. The rate
# is the rebuild's progress per member (the layer's own counter: fanraid's
# sync_ratio, md's sync_completed) over runtime= seconds from the first
# progress, or until it ends; the reader's MiB/s comes from fio.

# "done total" member sectors of the running rebuild; nothing before the
# pass shows progress or once it has ended. fanraid's sync_ratio counts
# array sectors, N-2 per member sector (as dm-raid's). md's sync_completed
# moves only every sixteenth of the member, so /proc/mdstat's recovery
# position (KiB) is read instead.
rebuild_done() { # LAYER N
	case $1 in
	fanraid-raid6)
		dmsetup status "$DM_NAME" | awk -v d=$(($2 - 2)) '$3 == "fanraid" && $8 != "idle" {
			split($7, r, "/"); printf "%d %d\n", r[1] / d, r[2] / d }' ;;
	md-raid6)
		awk -v md="${LAYER_DEV##*/}" '$1 == md { f = 1; next } f && /^$/ { exit }
			f && match($0, /\([0-9]+\/[0-9]+\)/) {
				split(substr($0, RSTART + 1, RLENGTH - 2), r, "/")
				printf "%d %d\n", r[1] * 2, r[2] * 2; exit }' /proc/mdstat ;;
	esac
}

# Whether the rebuild has ended with every member in sync.
rebuild_ended() { # LAYER N
	case $1 in
	fanraid-raid6)
		dmsetup status "$DM_NAME" | awk '$3 == "fanraid" {
			exit !($8 == "idle" && $6 ~ /^A+$/) }' ;;
	md-raid6)
		[ "$(cat "/sys/block/${LAYER_DEV##*/}/md/sync_action")" = idle ] &&
			grep -A1 "^${LAYER_DEV##*/} " /proc/mdstat | grep -q "\[$2/$2\]" ;;
	esac
}

# Fail member 0 and start its rebuild onto an empty member 0.
rebuild_start() { # LAYER N
	local t err i
	case $1 in
	fanraid-raid6)
		dmsetup message "$DM_NAME" 0 fail 0 || { SKIP_REASON="fail 0 refused"; return 1; }
		t=$(dmsetup table "$DM_NAME" | awk '$3 == "fanraid" {
			nf = $6; out = $1 " " $2 " " $3 " " $4 " " $5 " " nf + 2
			for (i = 7; i < 7 + nf; i++) out = out " " $i
			out = out " rebuild 0"
			for (i = 7 + nf; i <= NF; i++) out = out " " $i
			print out }')
		if ! err=$(dmsetup load "$DM_NAME" --table "$t" 2>&1) ||
			! dmsetup suspend "$DM_NAME" || ! dmsetup resume "$DM_NAME"; then
			SKIP_REASON="reload with rebuild 0 failed: $err $(last_klog)"
			return 1
		fi ;;
	md-raid6)
		# A member just failed may still be busy for a moment: --remove
		# is tried again.
		if ! err=$({ mdadm "$MD_DEV" --fail "${MEMBERS[0]}" &&
			for i in 1 2 3 4 5 6 7 8 9 10; do
				mdadm "$MD_DEV" --remove "${MEMBERS[0]}" && break
				[ "$i" = 10 ] && exit 1
				sleep 0.5
			done &&
			mdadm --zero-superblock "${MEMBERS[0]}" &&
			mdadm "$MD_DEV" --add "${MEMBERS[0]}"; } 2>&1); then
			SKIP_REASON="mdadm fail/remove/add failed: $(echo "$err" | tail -n1)"
			return 1
		fi ;;
	esac
}

rebuild_one() { # LAYER N
	local layer=$1 n=$2 rel=${S[id]}/$1-$2 fpid="" rate=0 i p0="" t0 p t now
	local cap=$((S[member] > 1 ? S[member] - 1 : 0)) load=${S[load]} done_all=0
	local reader_mibs=0 health member_w cpu0 cpu1
	# What member 0 writes on its own, the bar for the rebuild that
	# writes it (a fresh member each run: fresh=1).
	member_w=$(fio --name=member --filename="${MEMBERS[0]}" --rw=write --bs=1M --direct=1 \
		--ioengine=libaio --iodepth=32 --time_based --runtime=5 --output-format=json 2>/dev/null |
		sed -n '/^{/,$p' | jq -r '.jobs[0].write.bw_bytes / 1048576 | . * 10 | round / 10')
	if ! layer_up "$layer" "$n"; then
		return 1
	fi
	if [ "$load" != 0 ]; then
		[ "$cap" -gt 0 ] || { SKIP_REASON="load= needs capped members (member=)"; return 1; }
		rate=$((cap * (n - 1) * load / 100))
		fio --name=reader --filename="$TARGET" --rw=randread --bs=1M --direct=1 \
			--ioengine=libaio --iodepth="${S[qd]}" --rate="${rate}M" --time_based \
			--runtime=$((S[runtime] * 4 + 60)) --norandommap --randrepeat=0 \
			--output-format=json --output="$out/$rel.json" >/dev/null 2>&1 &
		fpid=$!
		sleep "${S[ramp]}"
	fi
	if ! rebuild_start "$layer" "$n"; then
		[ -n "$fpid" ] && kill "$fpid" 2>/dev/null && wait "$fpid" 2>/dev/null
		return 1
	fi
	# From the first progress the layer shows: md starts its recovery
	# from a thread after the add, fanraid from a work item after resume.
	local cur total=""
	for ((i = 0; i < 300; i++)); do
		cur=$(rebuild_done "$layer" "$n")
		[ -n "$cur" ] && break
		rebuild_ended "$layer" "$n" && break
		sleep 0.1
	done
	t0=$EPOCHREALTIME
	cpu0=$(cpu_ticks)
	p0=0
	[ -n "$cur" ] && read -r p0 total <<<"$cur"
	p=$p0 t=$t0
	while :; do
		now=$EPOCHREALTIME
		if rebuild_ended "$layer" "$n"; then
			done_all=1
			[ -n "$total" ] && p=$total
			t=$now
			break
		fi
		cur=$(rebuild_done "$layer" "$n")
		[ -n "$cur" ] && read -r p total <<<"$cur" && t=$now
		[ "${now%.*}" -ge $((${t0%.*} + S[runtime])) ] && break
		sleep 0.2
	done
	cpu1=$(cpu_ticks)
	if [ -n "$fpid" ]; then
		kill -INT "$fpid" 2>/dev/null
		wait "$fpid" 2>/dev/null
		# fio prints "terminating on signal" into its output first.
		sed -i -n '/^{/,$p' "$out/$rel.json"
		reader_mibs=$(jq -r '[.jobs[].read.bw_bytes] | add / 1048576 | . * 10 | round / 10' \
			"$out/$rel.json" 2>/dev/null)
	fi
	case $layer in
	fanraid-raid6) health=$(dmsetup status "$DM_NAME" | awk '{ print $6, $7, $8 }') ;;
	md-raid6) health=$(grep -A2 "^${LAYER_DEV##*/} " /proc/mdstat | tr -s ' \n' ' ') ;;
	esac
	{
		echo "scenario=${S[id]}"
		echo "layer=$layer"
		echo "n=$n"
		echo "job=rebuild"
		echo "chunk_sectors=${S[chunk]}"
		echo "load_pct=$load"
		echo "reader_cap_mibs=$rate"
		echo "reader_mibs=${reader_mibs:-0}"
		echo "rebuilt_sectors=$((p - p0))"
		echo "rebuild_seconds=$(awk -v a="$t0" -v b="$t" 'BEGIN { printf "%.3f", b - a }')"
		echo "rebuild_mibs=$(awk -v s=$((p - p0)) -v a="$t0" -v b="$t" 'BEGIN {
			printf "%.1f", (b > a) ? s * 512 / 1048576 / (b - a) : 0 }')"
		echo "rebuild_finished=$done_all"
		echo "member_write_mibs=${member_w:-0}"
		echo "cpu_busy_pct=$(echo "$cpu0 $cpu1" | awk '{ t = $4 - $2; printf "%.0f", (t > 0) ? 100 * ($3 - $1) / t : 0 }')"
		echo "rebuild_total_sectors=${total:-unknown}"
		echo "state_after=$health"
		echo "mode=$mode"
		[ "$mode" = vm ] && echo "member_nullb_mbps=${S[member]}"
		echo "kernel=$(uname -r)"
	} >"$out/$rel.meta"
	echo "measured: ${S[id]} $layer N=$n load ${load}%: rebuild $(sed -n 's/^rebuild_mibs=//p' "$out/$rel.meta") MiB/s per member, reader ${reader_mibs:-0} MiB/s"
	emit_file "$rel.meta"
	[ -f "$out/$rel.json" ] && emit_file "$rel.json"
	DIRTY=1
	return 0
}
