/* SPDX-License-Identifier: MIT */
/* stormark time: not implemented yet (being written). */
#include "cmd/cmd.h"

int cmd_time(int argc, char **argv)
{
	sm_error("'time' is not implemented yet");
	return SM_EXIT_FAIL;
}
