#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# mmdebstrap customize hook of DEBVM_SET=storage (image.sh); $1 is the root.
# fstests wants its unprivileged users and groups (README, "fsgqa"); Ceph's
# crash collector would only add load to a VM that is powered off after
# each run.
set -eu
root=$1
chroot "$root" groupadd -f fsgqa
chroot "$root" useradd -m -g fsgqa fsgqa 2>/dev/null || true
chroot "$root" useradd -m fsgqa2 2>/dev/null || true
chroot "$root" useradd -m 123456-fsgqa 2>/dev/null || true
chroot "$root" systemctl mask ceph-crash.service 2>/dev/null || true
