# SPDX-License-Identifier: GPL-2.0-only
# fanraid top level. Userspace objects go to build/, the module is built by
# Kbuild in dm-target/. Every sub-make owns its folder.

PREFIX ?= /usr/local
DESTDIR ?=
export PREFIX DESTDIR

BUILD := $(CURDIR)/build
export BUILD

.PHONY: all deps deps-build raidcalc userspace module unit check vmtest \
	vm-shell demo bench install clean

all: raidcalc userspace

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

vmtest: all module
	$(MAKE) -C tests/vm check

vm-shell: all module
	$(MAKE) -C tests/vm shell

# The README's test command: installs what it needs, then unit and VM tests.
check: deps
	$(MAKE) unit
	$(MAKE) vmtest

demo: deps
	$(MAKE) all module
	bench/demo.sh

bench: deps
	$(MAKE) all module
	bench/run.sh --suite full

install: all
	$(MAKE) -C raidcalc install
	$(MAKE) -C userspace install
	install -D -m 0644 docs/fanraid.8 $(DESTDIR)$(PREFIX)/share/man/man8/fanraid.8

clean:
	$(MAKE) -C dm-target clean
	rm -rf $(BUILD)
