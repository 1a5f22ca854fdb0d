#!/bin/bash
# Exercise a raid0 grow (4 -> 6 members under a mounted xfs) cut by the power three times, across four boots: in the critical section with only its backup written, at about a third of the copy and at about two thirds with files written during it; each boot assembles, resumes and finds every synced file intact, and the last finishes the grow, xfs_growfs takes the space and xfs_repair finds nothing.
# group: reboot-grow
# timeout: 420
# boots: 4
# disks: 6x96
. "${0%/*}/lib.sh"

have_target fanraid 1 7 0 || skip "target fanraid 1.7.0 missing"
have_cmd fanraid mkfs.xfs xfs_growfs xfs_repair sha256sum || skip "fanraid, xfsprogs or sha256sum missing"
have_fs xfs || skip "xfs missing"

grow_power_cuts 0
