/* SPDX-License-Identifier: MIT */
/* Names of verdicts, how they were decided, and directions (JSON, text). */
#include "result/verdict.h"

#include <stddef.h>

const char *sm_verdict_name(enum sm_verdict v)
{
	switch (v) {
	case SM_VERDICT_REALTIME:
		return "realtime";
	case SM_VERDICT_MARGINAL:
		return "marginal";
	case SM_VERDICT_UNCONFIRMED:
		return "unconfirmed";
	default:
		return "not-realtime";
	}
}

const char *sm_verdict_basis_name(unsigned bit)
{
	switch (bit) {
	case SM_BASIS_SHORT:
		return "short";
	case SM_BASIS_DIP:
		return "dip";
	case SM_BASIS_EXTRAPOLATED:
		return "extrapolated";
	case SM_BASIS_STALL:
		return "stall";
	default:
		return NULL;
	}
}

const char *sm_paced_outcome_name(enum sm_verdict v)
{
	switch (v) {
	case SM_VERDICT_REALTIME:
		return "held";
	case SM_VERDICT_MARGINAL:
		return "held-tight";
	default:
		return "dropped";
	}
}

const char *sm_verdict_how_name(enum sm_verdict_how h)
{
	return h == SM_HOW_PACED ? "paced" : "computed";
}

const char *sm_direction_name(enum sm_direction d)
{
	return d == SM_DIR_PLAYBACK ? "playback" : "capture";
}
