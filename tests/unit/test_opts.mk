# SPDX-License-Identifier: GPL-2.0-only
# test_opts.c compiles raidcalc/cli/opts.c in: rebuild when it changes.
$(OUT)/test_opts: $(TOP)/raidcalc/cli/opts.c $(TOP)/raidcalc/cli/cli.h
