# SPDX-License-Identifier: GPL-2.0-only
# fanraid top level. Userspace objects go to build/, the module is built by
# Kbuild in dm-target/. Every sub-make owns its folder.

PREFIX ?= /usr/local
DESTDIR ?=
export PREFIX DESTDIR

BUILD := $(CURDIR)/build
export BUILD

.PHONY: help all deps deps-build raidcalc userspace module unit check pkgtest vmtest \
	vm-shell debvm ceph-smoke fstests ceph-bench demo bench install uninstall clean

all: raidcalc userspace

help:
	@echo "make all          tool and raidcalc (build/)"
	@echo "make module       dm-target/dm-fanraid.ko"
	@echo "make check        deps, unit, packaging, the busybox VM, the Debian VM and"
	@echo "                  a Ceph OSD on fanraid (about 45 minutes)"
	@echo "make pkgtest      make install, uninstall and the .debs hold the same files"
	@echo "make debvm        the Debian-userland VM: the .debs, DKMS, udev, systemd"
	@echo "make fstests FSTESTS_SRC=DIR"
	@echo "                  fstests from a kdave/xfstests checkout at $(FSTESTS_TAG),"
	@echo "                  a subset on fanraid, dm-stripe and md (docs/testing.md)"
	@echo "make ceph-smoke   a Ceph OSD on fanraid RAID6: rados put/get, HEALTH_OK"
	@echo "make ceph-bench   rados bench, an OSD on fanraid, md, dm-stripe (docs/ceph.md)"
	@echo "make demo | bench benchmarks (docs/benchmarking.md)"
	@echo "make install | uninstall | clean"

deps:
	@scripts/deps.sh all

deps-build:
	@scripts/deps.sh build

raidcalc:
	$(MAKE) -C raidcalc

userspace: raidcalc
	$(MAKE) -C userspace

module:
	$(MAKE) -C dm-target

unit: all
	@scripts/check-layers.py
	$(MAKE) -C tests/unit check
	$(MAKE) -C raidcalc check

# make install, make uninstall and the .debs hold the same files.
pkgtest: all
	tests/pkg/check.sh

vmtest: all module
	$(MAKE) -C tests/vm check

# The Debian-userland VM (tests/debvm/run.sh): DKMS for two kernels, udev
# and systemd assembly, the monitor on a real I/O error, a root on fanraid
# through the initramfs (docs/testing.md).
debvm: all
	tests/debvm/run.sh

# A one-node Ceph 16 in the storage VM, its OSD on a fanraid RAID6:
# 64 MiB through rados byte-exact, HEALTH_OK (tests/debvm/ceph-smoke.sh).
ceph-smoke: all module
	tests/debvm/ceph-smoke.sh

# fstests (kdave/xfstests at tag $(FSTESTS_TAG), a checkout the user
# brings: FSTESTS_SRC=<dir>) built on the host under build/fstests, run in
# the Debian VM on fanraid RAID0, RAID6, RAID6 degraded and the dm-stripe
# and md controls, xfs and ext4 (tests/fstests/subset.list,
# docs/testing.md). Not part of check: it takes about an hour.
FSTESTS_TAG := v2026.01.27
export FSTESTS_TAG
fstests: all module
	@[ -n "$(FSTESTS_SRC)" ] || { echo "usage: make fstests FSTESTS_SRC=<xfstests checkout at $(FSTESTS_TAG)>" >&2; exit 2; }
	@scripts/deps.sh fstests
	tests/fstests/build.sh "$(FSTESTS_SRC)"
	tests/fstests/run.sh

# A one-node Ceph 16 in the Debian VM, its OSD on fanraid, md and
# dm-stripe: rados bench (bench/ceph, docs/benchmarking.md, docs/ceph.md).
ceph-bench: all module
	@scripts/deps.sh all
	bench/ceph/run.sh

vm-shell: all module
	$(MAKE) -C tests/vm shell

# The README's test command: installs what it needs, then the unit tests,
# the packaging, the kernel scenarios in the busybox VM and the Debian VM
# (.debs, DKMS, udev, systemd). From a fresh clone on a quiet 2-core host
# all of it took 2307 s, the busybox VM 1153 s of it (docs/testing.md).
check: deps
	$(MAKE) unit
	$(MAKE) pkgtest
	$(MAKE) vmtest
	$(MAKE) debvm
	$(MAKE) ceph-smoke

demo: deps
	$(MAKE) all module
	bench/demo.sh

bench: deps
	$(MAKE) all module
	bench/run.sh --suite full

# The tools, man pages, module source for DKMS, udev rule, systemd units
# and initramfs hook (packaging/Makefile says where each goes).
install: all
	$(MAKE) -C raidcalc install
	$(MAKE) -C userspace install
	$(MAKE) -C packaging install

# raidcalc/ has no uninstall of its own; its files are listed here.
uninstall:
	$(MAKE) -C userspace uninstall
	$(MAKE) -C packaging uninstall
	rm -f $(DESTDIR)$(PREFIX)/bin/raidcalc $(DESTDIR)$(PREFIX)/lib/libraidcalc.a \
		$(DESTDIR)$(PREFIX)/include/raidcalc.h \
		$(DESTDIR)$(PREFIX)/include/fanraid/geom.h \
		$(DESTDIR)$(PREFIX)/include/fanraid/sb.h \
		$(DESTDIR)$(PREFIX)/share/man/man1/raidcalc.1
	-rmdir $(DESTDIR)$(PREFIX)/include/fanraid 2>/dev/null

clean:
	$(MAKE) -C dm-target clean
	rm -rf $(BUILD)
