/* SPDX-License-Identifier: MIT */
/* Names of verdicts, how they were decided, and directions (JSON, text). */
#include "result/verdict.h"

const char *sm_verdict_name(enum sm_verdict v)
{
	switch (v) {
	case SM_VERDICT_REALTIME:
		return "realtime";
	case SM_VERDICT_MARGINAL:
		return "marginal";
	default:
		return "not-realtime";
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
