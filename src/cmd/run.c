/* SPDX-License-Identifier: MIT */
/* stormark run: not implemented yet (being written). */
#include "cmd/cmd.h"

int cmd_run(int argc, char **argv)
{
	sm_error("'run' is not implemented yet");
	return SM_EXIT_FAIL;
}
