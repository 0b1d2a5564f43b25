/* SPDX-License-Identifier: MIT */
/* Mixes of `stormark streams --mix`: the groups COUNTxFORMAT@FPS:play|capture
 * read from a SPEC or a file's text, and a group's figures from its
 * format (docs/streams.md, "Mixes"). Pure: no I/O. */
#ifndef SM_WORKLOAD_STREAMS_MIX_H
#define SM_WORKLOAD_STREAMS_MIX_H

#include <stddef.h>

#include "result/streams.h"

/* Fill g with format f at rate r in direction dir, count streams (its
 * codec, frame, chunk, rates and interval, as a cell has them). Returns 0,
 * or -ENOENT when f has no published rate at r. */
int sm_streams_group_init(struct sm_streams_group *g, const struct sm_sformat *f, const struct sm_fps *r,
			  enum sm_direction dir, unsigned count);

/*
 * Read the groups of text into *mix (mix->groups allocated here, freed by
 * sm_streams_mix_release). Groups are separated by commas or newlines (a
 * file: one group per line), each COUNTxFORMAT@FPS:play|capture ("2x
 * prores-hq-hd@25:play"; "playback" is "play"), spaces around a group and
 * its parts ignored; in a file ('file' 1) a '#' starts a comment and empty
 * lines are skipped. At most SM_STREAMS_MAX_GROUPS groups and
 * SM_STREAMS_MAX streams in all. Returns 0, or -EINVAL with *mix empty and
 * one line in err naming the bad group and what is wrong with it
 * ("'3xdpx-9k@24:play': no stream format 'dpx-9k' (stormark streams
 * --list)") and *line its line in the text (1 on), or -ENOMEM.
 */
int sm_streams_mix_parse(const char *text, int file, struct sm_streams_mix *mix, char *err, size_t errlen,
			 unsigned *line);

/* Free what sm_streams_mix_parse allocated (a zeroed mix is fine). */
void sm_streams_mix_release(struct sm_streams_mix *mix);

/* The published bytes/s the mix's streams of direction dir need (all of
 * them for dir < 0). */
double sm_streams_mix_rate(const struct sm_streams_mix *mix, int dir);

#endif
