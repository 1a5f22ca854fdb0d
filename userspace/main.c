/* SPDX-License-Identifier: GPL-2.0-only */
/* fanraid: the control tool. Everything but main() is in libfrtool.a. */
#include "cli.h"

int main(int argc, char **argv)
{
	return fr_main(argc, argv);
}
