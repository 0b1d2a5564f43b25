/* SPDX-License-Identifier: MIT */
/* stormark fileio: not implemented yet (being written). */
#include "cmd/cmd.h"

int cmd_fileio(int argc, char **argv)
{
	sm_error("'fileio' is not implemented yet");
	return SM_EXIT_FAIL;
}

int cmd_sysbench(int argc, char **argv)
{
	sm_error("'sysbench' compatibility is not implemented yet");
	return SM_EXIT_FAIL;
}
