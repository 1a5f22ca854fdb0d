# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Sourced by bench.sh: out, mode, S, DIRTY and SKIP_REASON are its globals.
# shellcheck disable=SC2034,SC2154
#
# The write-intent bitmap benchmarks (issue 12, "Measure"), sourced by
# bench/lib/bench.sh. Two parts:
#
# Layers, built on the same members as the others (layer_up hands these
# names over to bitmap_layer_up):
#   fanraid-r6-bitmap    `fanraid create --level 6 --bitmap <bitmap>`: the
#                        superblock feature and a write-intent bitmap with
#                        regions of the entry's bitmap= size [64M, the
#                        tool's default]
#   fanraid-r6-nobitmap  the same with `--bitmap none`: superblocks, no bitmap
#   md-raid6-bitmap      mdadm --level=6 --bitmap=internal
#                        --bitmap-chunk=<bitmap> --assume-clean
#   md-raid6-nobitmap    mdadm --level=6 --bitmap=none --assume-clean
# `fanraid create` starts a full parity resync and sets every bit; md gets
# --assume-clean. So that both start in sync, the fanraid table is reloaded
# without its resync feature (the members' parity is not computed: the
# same as md's --assume-clean, and harmless for a write benchmark), and the
# run waits for the cleaner to clear every bit, so writes pay for setting
# them as they would on an array in service.
#
# Crash resync (entries with job=resync, run by resync_one instead of fio):
# the members are dm-linear devices over the null_blk ones. fio writes 4 KiB
# at random into a few regions (resync_pct= of them, scattered) of the array;
# while it runs, every member is suspended, its table swapped to dm-flakey
# with drop_writes (reads pass, every write and flush completes without
# reaching the media) and resumed: a power cut, the same instant for all
# members. fio is stopped and the array taken down; what the layer writes
# as it goes (clean superblocks, cleared bits) never reaches the media. The
# members go back to dm-linear and the array is assembled again
# (`fanraid assemble`, `mdadm --assemble`), which finds it dirty. The time
# is from the assemble command to the end of the resync it started: for
# fanraid, `dmsetup wait` on the table event the end of a sync pass raises
# (status then says idle); for md, resync_start reading "none" and
# sync_action "idle" (`mdadm --wait` between looks). The regions set on the
# media before the assembly are counted (`fanraid examine`, `mdadm -X`).

BITMAP_CUT_DEVS=()

# Bytes of a size word (64M, 4k, 1G).
bitmap_bytes() { # SIZE
	echo $(($(to_mib "$1") * 1048576))
}

# Strips the resync feature from the live fanraid table and reloads it.
bitmap_skip_resync() { # DMNAME
	local t
	t=$(dmsetup table "$1" | awk '$3 == "fanraid" {
		nf = $6; out = $1 " " $2 " " $3 " " $4 " " $5; w = ""; k = 0
		for (i = 7; i < 7 + nf; i++) if ($i == "resync") { skip = i } 
		if (!skip) { print; exit }
		for (i = 7; i < 7 + nf; i++) if (i != skip) w = w " " $i
		out = out " " nf - 1 w
		for (i = 7 + nf; i <= NF; i++) out = out " " $i
		print out }')
	[ -n "$t" ] || return 1
	[ "$t" = "$(dmsetup table "$1")" ] && return 0
	dmsetup reload "$1" --table "$t" && dmsetup resume "$1"
}

# fanraid INFO fields: action (field 8) and the bitmap's three words.
bitmap_fr_dirty() { # DMNAME
	dmsetup status "$1" | awk '$3 == "fanraid" { print $(20 + 8 * $5); exit }'
}

bitmap_fr_wait() { # DMNAME SECONDS: until idle and no bit set
	local i st
	for ((i = 0; i < $2 * 4; i++)); do
		st=$(dmsetup status "$1")
		case $st in *" idle "*)
			[ "$(echo "$st" | awk '$3 == "fanraid" { print $(20 + 8 * $5) }')" = 0 ] && return 0 ;;
		esac
		sleep 0.25
	done
	return 1
}

bitmap_md_dirty() { # MEMBER: bits set in md's bitmap on its media
	# md writes past the member's page cache: drop it before reading.
	blockdev --flushbufs "$1" 2>/dev/null
	mdadm -X "$1" 2>/dev/null | sed -n 's/.*bits (chunks), \([0-9]*\) dirty.*/\1/p'
}

bitmap_md_wait() { # MEMBER SECONDS: until no bit is set
	local i
	for ((i = 0; i < $2 * 2; i++)); do
		[ "$(bitmap_md_dirty "$1")" = 0 ] && return 0
		sleep 0.5
	done
	return 1
}

# Builds one of the layers above; same contract as layer_up.
bitmap_layer_up() { # LAYER N DEVS...
	local layer=$1 n=$2 chunk=${S[chunk]} err bm
	shift 2
	[ "$n" -ge 4 ] || { SKIP_REASON="raid6 needs 4 or more members"; return 1; }
	DIRTY=1
	bm=${S[bitmap]}
	case $layer in
	fanraid-r6-bitmap | fanraid-r6-nobitmap)
		have_target fanraid || { SKIP_REASON="target fanraid not loaded (make module)"; return 1; }
		command -v fanraid >/dev/null || { SKIP_REASON="the fanraid tool is missing (make)"; return 1; }
		[ "$layer" = fanraid-r6-nobitmap ] && bm=none
		if ! err=$(fanraid create "$DM_NAME" --level 6 --chunk $((chunk / 2))K \
			--bitmap "$bm" --force "$@" 2>&1); then
			SKIP_REASON="fanraid create --bitmap $bm failed: $(echo "$err" | tail -n1)"
			return 1
		fi
		dmsetup mknodes "$DM_NAME"
		if ! bitmap_skip_resync "$DM_NAME"; then
			SKIP_REASON="reloading $DM_NAME without resync failed"
			return 1
		fi
		if ! bitmap_fr_wait "$DM_NAME" 60; then
			SKIP_REASON="bitmap not clean 60 s after create: $(dmsetup status "$DM_NAME")"
			return 1
		fi
		LAYER_DEV=/dev/mapper/$DM_NAME ;;
	md-raid6-bitmap | md-raid6-nobitmap)
		modprobe raid456 2>/dev/null
		local bargs=(--bitmap=none)
		[ "$layer" = md-raid6-bitmap ] &&
			bargs=(--bitmap=internal --bitmap-chunk=$(($(to_mib "$bm") * 1024)))
		if ! err=$(mdadm --create "$MD_DEV" --level=6 --raid-devices="$n" \
			--chunk=$((chunk / 2))K --metadata=1.2 "${bargs[@]}" --assume-clean \
			--force --run "$@" 2>&1); then
			SKIP_REASON="mdadm --create ${bargs[*]} failed: $(echo "$err" | tail -n1)"
			return 1
		fi
		LAYER_DEV=$(readlink -f "$MD_DEV")
		# mdadm writes a new internal bitmap with every bit set, and md
		# clears them over a few 5 s daemon periods: wait, as for fanraid.
		if [ "$layer" = md-raid6-bitmap ] && ! bitmap_md_wait "$1" 90; then
			SKIP_REASON="md bitmap not clean 90 s after create: $(mdadm -X "$1" 2>&1 | grep -i dirty)"
			return 1
		fi ;;
	esac
	TARGET=$LAYER_DEV
	return 0
}

# What the layer says about its bitmap, for the .meta.
bitmap_layer_state() { # LAYER
	case $1 in
	fanraid-r6-*) echo "fanraid_table=$(dmsetup table "$DM_NAME" 2>/dev/null)" ;;
	md-raid6-*)
		echo "mdstat=$(awk -v md="${LAYER_DEV##*/}" '$1 == md { f = 1 } f && /^$/ { exit } f' /proc/mdstat | tr '\n' ' ')" ;;
	esac
}

# --- crash resync --------------------------------------------------------

bitmap_cut_up() { # N: dm-linear members over the null_blk ones
	local i d
	BITMAP_CUT_DEVS=()
	for ((i = 0; i < $1; i++)); do
		d=${MEMBERS[i]}
		dmsetup create "bench-cut$i" --table "0 $(blockdev --getsz "$d") linear $d 0" || return 1
		dmsetup mknodes "bench-cut$i"
		BITMAP_CUT_DEVS+=("/dev/mapper/bench-cut$i")
	done
}

bitmap_cut_down() {
	local i
	for ((i = 0; i < ${#BITMAP_CUT_DEVS[@]}; i++)); do
		dmsetup remove "bench-cut$i" 2>/dev/null
	done
	BITMAP_CUT_DEVS=()
}

# Every member to TARGET at one instant: all suspended, all loaded, all
# resumed (I/O reaching a member between its suspend and resume waits).
bitmap_cut_switch() { # N linear|drop
	local i d sz t
	for ((i = 0; i < $1; i++)); do dmsetup suspend "bench-cut$i"; done
	for ((i = 0; i < $1; i++)); do
		d=${MEMBERS[i]}
		sz=$(blockdev --getsz "$d")
		if [ "$2" = drop ]; then
			t="0 $sz flakey $d 0 0 3600 1 drop_writes"
		else
			t="0 $sz linear $d 0"
		fi
		dmsetup load "bench-cut$i" --table "$t" || return 1
	done
	for ((i = 0; i < $1; i++)); do dmsetup resume "bench-cut$i"; done
}

resync_one() { # LAYER N
	local layer=$1 n=$2 rel=${S[id]}/$1-$2 region region_b span nreg want
	local i r step fpid t0 t1 ta="" ev secs dirty_before="" synced="" err rc=0 line
	local devs offs=()
	bitmap_cut_up "$n" || { SKIP_REASON="could not make the dm-linear members"; bitmap_resync_down "$n"; return 1; }
	devs=("${BITMAP_CUT_DEVS[@]}")
	if ! bitmap_layer_up "$layer" "$n" "${devs[@]}"; then
		bitmap_resync_down "$n"
		return 1
	fi
	region=${S[bitmap]}
	region_b=$(bitmap_bytes "$region")
	# The array's length per member, in regions; writes go to resync_pct
	# percent of them (at least one), spread evenly. One region of every
	# member is (N-2) x region bytes of the array.
	local per
	per=$(($(blockdev --getsize64 "$TARGET") / (n - 2)))
	nreg=$((per / region_b))
	want=$(((nreg * ${S[resync_pct]} + 99) / 100))
	[ "$want" -ge 1 ] || want=1
	step=$((nreg / want))
	span=$((region_b * (n - 2)))
	local args=()
	for ((i = 0; i < want; i++)); do
		r=$((i * step + step / 2))
		offs+=("$r")
		args+=(--name="r$r" --offset=$((r * span)) "--size=$span")
	done
	say "resync $layer N=$n: $nreg regions of $region per member; writing into ${want} (${offs[*]})"
	fio --thread --filename="$TARGET" --rw=randwrite --bs=4k --direct=1 --ioengine=libaio \
		--iodepth=16 --time_based --runtime=120 --norandommap --randrepeat=0 \
		--output-format=json --output="$out/$rel.json" "${args[@]}" >/dev/null 2>&1 &
	fpid=$!
	# The cut comes runtime= seconds after the array's first completed
	# write (fio takes seconds to start under TCG), and only while the
	# array says it is being written (dirty; md: active).
	local state_live sb_live dirty_live sb_cut asm_out f wst
	# /dev/mapper nodes are no symlinks without udev: by major:minor.
	read -r f <<<"$(stat -L -c '%t %T' "$TARGET")"
	wst=/sys/dev/block/$((16#${f% *})):$((16#${f#* }))/stat
	for ((i = 0; i < 600; i++)); do
		read -r -a f <"$wst" 2>/dev/null || f=(0 0 0 0 0)
		[ "${f[4]:-0}" -gt 0 ] && break
		sleep 0.1
	done
	sleep "${S[runtime]}"
	for ((i = 0; i < 20; i++)); do
		case $layer in
		fanraid-r6-*) sb_live=$(fanraid_sb_state "$DM_NAME") ;;
		*) sb_live=$(cat "/sys/block/${LAYER_DEV##*/}/md/array_state") ;;
		esac
		case $sb_live in dirty | active) break ;; esac
		sleep 0.2
	done
	case $layer in
	fanraid-r6-*) dirty_live=$(bitmap_fr_dirty "$DM_NAME") ;;
	*) dirty_live=- ;;
	esac
	state_live=$(bitmap_layer_state "$layer")
	# The power cut.
	bitmap_cut_switch "$n" drop || { SKIP_REASON="switching members to drop_writes failed"; rc=1; }
	kill "$fpid" 2>/dev/null
	wait "$fpid" 2>/dev/null
	case $layer in
	fanraid-r6-*) dmsetup remove "$DM_NAME" ;;
	md-raid6-*) mdadm --stop "$MD_DEV" >/dev/null 2>&1 ;;
	esac
	bitmap_cut_switch "$n" linear || { SKIP_REASON="switching members back failed"; rc=1; }
	for d in "${devs[@]}"; do blockdev --flushbufs "$d"; done
	drop_caches
	if [ "$rc" = 0 ]; then
		case $layer in
		fanraid-r6-*) sb_cut=$(fanraid examine "${devs[0]}" 2>&1 | grep -i 'state' | tr -s ' \n' ' ') ;;
		*) sb_cut=$(mdadm -E "${devs[0]}" 2>&1 | grep -E 'State|Bitmap' | tr -s ' \n' ' ') ;;
		esac
		case $layer in
		fanraid-r6-bitmap) dirty_before=$(fanraid examine --json "${devs[0]}" |
			sed -n 's/.*"bitmap_dirty_regions": \([0-9]*\).*/\1/p') ;;
		md-raid6-bitmap) dirty_before=$(bitmap_md_dirty "${devs[0]}") ;;
		*) dirty_before=all ;;
		esac
		t0=$EPOCHREALTIME
		case $layer in
		fanraid-r6-*)
			if ! asm_out=$(fanraid assemble "$DM_NAME" "${devs[@]}" 2>&1); then
				SKIP_REASON="fanraid assemble failed: $(echo "$asm_out" | tail -n1)"
				rc=1
			else
				ta=$EPOCHREALTIME
				while :; do
					ev=$(dmsetup info -c --noheadings -o events "$DM_NAME")
					case "$(dmsetup status "$DM_NAME")" in *" idle "*) break ;; esac
					timeout 60 dmsetup wait "$DM_NAME" "$ev" >/dev/null 2>&1
					[ "${EPOCHREALTIME%.*}" -lt $((${t0%.*} + 1200)) ] ||
						{ SKIP_REASON="no idle 1200 s after assemble"; rc=1; break; }
				done
			fi ;;
		md-raid6-*)
			if ! asm_out=$(mdadm --assemble "$MD_DEV" --run "${devs[@]}" 2>&1); then
				SKIP_REASON="mdadm --assemble failed: $(echo "$asm_out" | tail -n1)"
				rc=1
			else
				# An array assembled read-auto holds its resync
				# (resync=PENDING) until the first write: start it.
				ta=$EPOCHREALTIME
				LAYER_DEV=$(readlink -f "$MD_DEV")
				local sysd=/sys/block/${LAYER_DEV##*/}/md rs act
				[ "$(cat "$sysd/array_state")" = read-auto ] &&
					asm_out="$asm_out $(mdadm --readwrite "$MD_DEV" 2>&1)"
				while :; do
					read -r rs <"$sysd/resync_start"
					read -r act <"$sysd/sync_action"
					[ "$rs" = none ] && [ "$act" = idle ] && break
					mdadm --wait "$MD_DEV" >/dev/null 2>&1 || sleep 0.1
					[ "${EPOCHREALTIME%.*}" -lt $((${t0%.*} + 1200)) ] ||
						{ SKIP_REASON="resync not done 1200 s after assemble: resync_start $rs, sync_action $act"; rc=1; break; }
				done
			fi ;;
		esac
		t1=$EPOCHREALTIME
	fi
	if [ "$rc" != 0 ]; then
		bitmap_resync_down "$n"
		return 1
	fi
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
	case $layer in
	fanraid-r6-*)
		synced=$(dmsetup status "$DM_NAME" | awk '$3 == "fanraid" { print $(21 + 8 * $5) }')
		err=$(dmesg | grep -E 'fanraid.*(resync|complete)' | tail -n 2 | tr '\n' ' ') ;;
	md-raid6-*)
		err=$(dmesg | grep -E 'md.*(resync|sync)' | tail -n 2 | tr '\n' ' ') ;;
	esac
	{
		echo "scenario=${S[id]}"
		echo "layer=$layer"
		echo "n=$n"
		echo "job=resync"
		echo "chunk_sectors=${S[chunk]}"
		echo "bitmap_region=$region"
		echo "regions_per_member=$nreg"
		echo "regions_written=$want"
		echo "region_indexes=${offs[*]}"
		echo "write_seconds_before_cut=${S[runtime]}"
		echo "state_before_cut=$sb_live"
		echo "state_on_media_after_cut=$sb_cut"
		echo "assemble_output=$(echo "$asm_out" | tr '\n' ' ')"
		echo "dirty_regions_live=$dirty_live"
		echo "dirty_regions_on_media=$dirty_before"
		echo "sync_regions=$synced"
		echo "resync_seconds=$secs"
		echo "assemble_seconds=$(awk -v a="$t0" -v b="$ta" 'BEGIN { printf "%.3f", b - a }')"
		echo "mode=$mode"
		[ "$mode" = vm ] && echo "member_nullb_mbps=${S[member]}"
		echo "members=$(printf '%s,' "${devs[@]}" | sed 's/,$//')"
		echo "member_bytes=$(blockdev --getsize64 "${devs[0]}")"
		echo "kernel=$(uname -r)"
		echo "$state_live" | sed 's/^/live_/'
		echo "klog=$err"
	} >"$out/$rel.meta"
	line="measured: ${S[id]} $layer N=$n: resync after a cut with ${dirty_before} regions set"
	line="$line (of $nreg per member${synced:+, resync covered $synced}): ${secs} s"
	echo "$line"
	emit_file "$rel.meta"
	emit_file "$rel.json"
	bitmap_resync_down "$n"
	return 0
}

# The array first, then the dm-linear members it held, then the wipe of
# the null_blk members under them; bench.sh's layer_down then finds
# nothing left to do.
bitmap_resync_down() { # N
	dmsetup info "$DM_NAME" >/dev/null 2>&1 && dmsetup remove "$DM_NAME"
	[ -e "$MD_DEV" ] && mdadm --stop "$MD_DEV" >/dev/null 2>&1
	bitmap_cut_down
	members_wipe "$1"
	DIRTY=0
}
