#!/bin/bash
# Exercise a cancelled suspend: while a RAID6 rebuild runs and a flush is held 10 s by dm-delay, a dmsetup suspend interrupted by a signal leaves the array active and the rebuild still advancing (presuspend_undo).
# group: main
# timeout: 180
. "${0%/*}/lib.sh"

have_target fanraid 1 2 0 || fail "target fanraid 1.2.0 missing"
have_target delay 1 2 0 || fail "target delay with a flush class missing"

n=4 chunk=128
mapfile -t d < <(nullb_create_many $n 8 cache_size=8 blocksize=4096)
sz=$(dev_sectors "${d[0]}")
dm_create slow "0 $sz delay ${d[0]} 0 0 ${d[0]} 0 0 ${d[0]} 0 10000"
len=$((sz / chunk * chunk * (n - 2)))
# 256 KiB/s per member: the rebuild of 8 MiB takes about 30 s.
dm_create fr "0 $len fanraid raid6 $chunk 4 rebuild 3 max_sync_rate 256 $n /dev/mapper/slow 0 ${d[1]} 0 ${d[2]} 0 ${d[3]} 0"

synced() { dmsetup status fr | awk '{ split($7, r, "/"); print r[1] }'; }

# A flush held in member 0's delay queue: the suspend waits for it.
dd if=/dev/null of=/dev/mapper/fr conv=fsync status=none &
flusher=$!
sleep 1
dmsetup suspend fr 2>/tmp/suspend.err &
suspender=$!
sleep 1
grep -q "State: *SUSPENDED" <(dmsetup info fr) && fail "suspended although a flush was in flight"
# TERM, not INT: a non-interactive shell starts background jobs with
# SIGINT ignored. The kernel's wait for in-flight I/O is interruptible.
kill -TERM $suspender
wait $suspender && fail "the interrupted suspend reported success"
log "suspend interrupted: $(tr '\n' ' ' </tmp/suspend.err)"
dmsetup info fr | grep -q "State: *ACTIVE" || fail "the array is not active after the cancelled suspend: $(dmsetup info fr)"

# The pass works in batches of 1 MiB per member, one every 4 s at this
# rate: a 4 s look can fall between two, so look for 9 s (the rebuild
# still has over 20 s to go).
before=$(synced)
sleep 9
after=$(synced)
log "rebuild at $before, 9 s later $after of $len sectors"
[ "$after" -gt "$before" ] || fail "the rebuild stopped after the cancelled suspend ($before -> $after)"
case "$(dmsetup status fr)" in *" recover "*) ;; *) fail "not rebuilding: $(dmsetup status fr)" ;; esac

wait $flusher || fail "the held fsync failed"
dm_remove fr
dm_remove slow
nullb_destroy_all
