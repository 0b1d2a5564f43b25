/* SPDX-License-Identifier: MIT */
/* stormark frames: not implemented yet (being written). */
#include "cmd/cmd.h"

int cmd_frames(int argc, char **argv)
{
	sm_error("'frames' is not implemented yet");
	return SM_EXIT_FAIL;
}
