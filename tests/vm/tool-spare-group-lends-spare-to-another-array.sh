#!/bin/bash
# fanraid.conf's spare-group: a member of array fb fails and fb has no spare of its own, so fanraid monitor moves the spare of fa (same spare-group) into fb (MoveSpare), which rebuilds onto it with data exact; array fc, in no group, keeps its dead slot and fa keeps none.
# group: tool
# timeout: 180
. "${0%/*}/lib.sh"

have_target fanraid 1 5 0 || fail "target fanraid 1.5.0 missing"
have_cmd fanraid jq || fail "fanraid or jq missing"

mapfile -t nb < <(nullb_create_many 13 16)
on_exit 'kill $monpid 2>/dev/null; for a in fa fb fc; do fanraid stop $a >/dev/null 2>&1; done; true'
fanraid create fa --level 6 --chunk 16K --bitmap none "${nb[@]:0:4}"
fanraid create fb --level 6 --chunk 16K --bitmap none "${nb[@]:4:4}"
fanraid create fc --level 6 --chunk 16K --bitmap none "${nb[@]:8:4}"
spare=${nb[12]}
for a in fa fb fc; do fanraid_wait_idle $a; done
fanraid add fa "$spare" >/dev/null
uuid() { fanraid status "$1" --json | jq -r '.arrays[0].uuid'; }
cat >/tmp/mon.conf <<EOF
ARRAY fa UUID=$(uuid fa) spare-group=g1
ARRAY fb UUID=$(uuid fb) spare-group=g1
ARRAY fc UUID=$(uuid fc)
PROGRAM /tmp/prog.sh
EOF
cat >/tmp/prog.sh <<'EOS'
#!/bin/bash
echo "$*" >>/tmp/events
EOS
chmod +x /tmp/prog.sh
: >/tmp/events

head -c $((8 * 1024 * 1024)) /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/fb bs=1M oflag=direct status=none

fanraid monitor --config /tmp/mon.conf >/tmp/monitor.out 2>&1 &
monpid=$!
for i in $(seq 1 50); do
	grep -q "monitoring" /tmp/monitor.out && break
	sleep 0.1
done
grep -q "monitoring" /tmp/monitor.out || fail "monitor did not start: $(cat /tmp/monitor.out)"

# fc is in no spare group: its dead slot stays dead.
fanraid fail fc 2 >/dev/null
for i in $(seq 1 50); do
	grep -q "^Fail fc slot 2 " /tmp/events && break
	sleep 0.1
done
grep -q "^Fail fc slot 2 " /tmp/events || fail "no Fail event for fc: $(cat /tmp/events)"
sleep 1
assert_contains "$(dmsetup status fc)" "raid6 4 AADA "
assert_contains "$(fanraid status fa)" "spares: $spare"

fanraid fail fb 1 >/dev/null
for i in $(seq 1 200); do
	grep -q "^MoveSpare fb slot 1 rebuilding onto $spare" /tmp/events && break
	sleep 0.1
done
grep -q "^MoveSpare fb slot 1 rebuilding onto $spare" /tmp/events ||
	fail "no MoveSpare in: $(cat /tmp/events); monitor: $(cat /tmp/monitor.out)"
fanraid_wait_idle fb 120
assert_contains "$(dmsetup status fb)" "raid6 4 AAAA "
assert_contains "$(fanraid status fa)" "spares: none"
assert_contains "$(dmsetup status fc)" "raid6 4 AADA "
assert_eq "$(fanraid examine "$spare" --json | jq -r '.name, .slot')" "$(printf 'fb\n1')" "the spare now"
drop_caches
cmp /tmp/data <(head -c $((8 * 1024 * 1024)) /dev/mapper/fb) || fail "fb's data differs after the rebuild onto fa's spare"
grep -q "SpareActivated fc\|MoveSpare fc" /tmp/events && fail "fc got a spare: $(cat /tmp/events)"
kill $monpid
log "fa's spare moved into fb, rebuilt, data exact; fc, in no group, left alone"
