#!/bin/bash
# Exercise a raid6 grow (4 -> 6 members under a mounted xfs) cut by the power three times, across four boots: in the critical section with only its backup written, at about a third of the copy and at about two thirds with files written during it, the kernel recording its own progress; each boot assembles, resumes and finds every synced file intact, and the last finishes the grow, xfs_growfs takes the space, xfs_repair finds nothing, and after the resync raidcalc verify finds no parity wrong.
# group: reboot-grow6
# timeout: 300
# boots: 4
# disks: 6x160
. "${0%/*}/lib.sh"

have_target fanraid 1 8 0 || skip "target fanraid 1.8.0 missing"
have_cmd fanraid raidcalc mkfs.xfs xfs_growfs xfs_repair sha256sum || skip "fanraid, raidcalc, xfsprogs or sha256sum missing"
have_fs xfs || skip "xfs missing"

grow_power_cuts 6
