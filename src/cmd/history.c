/* SPDX-License-Identifier: MIT */
/* stormark history: not implemented yet (being written). */
#include "cmd/cmd.h"

int cmd_history(int argc, char **argv)
{
	sm_error("'history' is not implemented yet");
	return SM_EXIT_FAIL;
}
