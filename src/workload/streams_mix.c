/* SPDX-License-Identifier: MIT */
/* Reading a mix: COUNTxFORMAT@FPS:play|capture groups (docs/streams.md,
 * "Mixes"). */
#include "workload/streams_mix.h"
#include "core/sformats.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int sm_streams_group_init(struct sm_streams_group *g, const struct sm_sformat *f, const struct sm_fps *r,
			  enum sm_direction dir, unsigned count)
{
	memset(g, 0, sizeof(*g));
	g->chunk_bytes = sm_sformat_chunk(f, r);
	if (!g->chunk_bytes)
		return -ENOENT;
	snprintf(g->format, sizeof(g->format), "%s", f->name);
	snprintf(g->codec, sizeof(g->codec), "%s", f->codec);
	snprintf(g->fps_name, sizeof(g->fps_name), "%s", r->name);
	g->fps = sm_fps_value(r);
	g->dir = dir;
	g->sequence = sm_sformat_is_sequence(f);
	g->count = count;
	g->frame_bytes = sm_sformat_frame_bytes(f, r);
	g->rate = sm_sformat_rate(f, r);
	g->moved_rate = sm_sformat_moved_rate(f, r);
	g->needed = count * g->rate;
	g->interval_ns = (uint64_t)llround(1e9 / g->fps);
	return 0;
}

/* Trim spaces at both ends of s in place; returns s. */
static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* One group "COUNTxFORMAT@FPS:DIR" (trimmed) into g; -EINVAL with the
 * reason in why. */
static int parse_group(char *s, struct sm_streams_group *g, char *why, size_t len)
{
	char *x, *at, *colon, *end, *fmt, *fps, *dir;
	const struct sm_fps *r;
	struct sm_sformat f;
	unsigned long count;
	enum sm_direction d;

	x = s;
	while (isdigit((unsigned char)*x))
		x++;
	at = strrchr(s, '@');
	colon = at ? strchr(at, ':') : NULL;
	if (x == s || (*x != 'x' && *x != 'X') || !at || !colon || at < x) {
		snprintf(why, len, "expected COUNTxFORMAT@FPS:play|capture");
		return -EINVAL;
	}
	errno = 0;
	count = strtoul(s, &end, 10);
	if (errno || count < 1 || count > SM_STREAMS_MAX) {
		snprintf(why, len, "the count is not 1 to %d", SM_STREAMS_MAX);
		return -EINVAL;
	}
	*at = *colon = '\0';
	fmt = trim(x + 1);
	fps = trim(at + 1);
	dir = trim(colon + 1);
	if (sm_sformat_find(fmt, &f)) {
		snprintf(why, len, "no stream format '%s' (stormark streams --list)", fmt);
		return -EINVAL;
	}
	r = sm_fps_find(fps);
	if (!r) {
		snprintf(why, len, "no frame rate '%s' (23.976 24 25 29.97 30 48 50 59.94 60 120)", fps);
		return -EINVAL;
	}
	if (!strcasecmp(dir, "play") || !strcasecmp(dir, "playback"))
		d = SM_DIR_PLAYBACK;
	else if (!strcasecmp(dir, "capture"))
		d = SM_DIR_CAPTURE;
	else {
		snprintf(why, len, "'%s' is neither play nor capture", dir);
		return -EINVAL;
	}
	if (sm_streams_group_init(g, &f, r, d, (unsigned)count)) {
		snprintf(why, len, "'%s' has no published rate at %s fps (stormark streams --list)", f.name,
			 r->name);
		return -EINVAL;
	}
	return 0;
}

/* A group of the same format, frame rate and direction as one already in
 * mix is that group: its streams are added to it (one group, one row and
 * one series in every layout, not two under one name). Returns 1 when g
 * was merged so, 0 when it is a group of its own. */
static int merge(struct sm_streams_mix *mix, const struct sm_streams_group *g)
{
	for (unsigned k = 0; k < mix->ngroups; k++) {
		struct sm_streams_group *h = &mix->groups[k];

		if (!strcmp(h->format, g->format) && !strcmp(h->fps_name, g->fps_name) && h->dir == g->dir) {
			h->count += g->count;
			h->needed = h->count * h->rate;
			return 1;
		}
	}
	return 0;
}

int sm_streams_mix_parse(const char *text, int file, struct sm_streams_mix *mix, char *err, size_t errlen,
			 unsigned *line)
{
	char *copy = strdup(text), *p, *next, why[200], name[200];
	struct sm_streams_group one;
	unsigned ln = 1, total = 0;
	int rc = 0;

	memset(mix, 0, sizeof(*mix));
	*line = 0;
	if (!copy)
		return -ENOMEM;
	mix->groups = calloc(SM_STREAMS_MAX_GROUPS, sizeof(*mix->groups));
	if (!mix->groups) {
		free(copy);
		return -ENOMEM;
	}
	for (p = copy; p && !rc; p = next) {
		size_t span = strcspn(p, ",\n");
		unsigned here = ln;
		char *g, *hash;

		next = p[span] ? p + span + 1 : NULL;
		if (p[span] == '\n')
			ln++;
		p[span] = '\0';
		if (file && (hash = strchr(p, '#')))
			*hash = '\0';
		g = trim(p);
		if (!*g) {
			if (file)
				continue;
			snprintf(err, errlen, "an empty group (groups are COUNTxFORMAT@FPS:play|capture, "
				 "comma-separated)");
			*line = here;
			rc = -EINVAL;
			break;
		}
		snprintf(name, sizeof(name), "%s", g);   /* parse_group cuts g up */
		if (parse_group(g, &one, why, sizeof(why))) {
			snprintf(err, errlen, "'%s': %s", name, why);
			*line = here;
			rc = -EINVAL;
			break;
		}
		total += one.count;
		if (!merge(mix, &one)) {
			if (mix->ngroups == SM_STREAMS_MAX_GROUPS) {
				snprintf(err, errlen, "'%s': more than %d groups", name, SM_STREAMS_MAX_GROUPS);
				*line = here;
				rc = -EINVAL;
				break;
			}
			mix->groups[mix->ngroups++] = one;
		}
		if (total > SM_STREAMS_MAX) {
			snprintf(err, errlen, "'%s': the mix would have %u streams, at most %d",
				 name, total, SM_STREAMS_MAX);
			*line = here;
			rc = -EINVAL;
		}
	}
	free(copy);
	if (!rc && !mix->ngroups) {
		snprintf(err, errlen, "no group (groups are COUNTxFORMAT@FPS:play|capture)");
		rc = -EINVAL;
	}
	if (rc) {
		sm_streams_mix_release(mix);
		return rc;
	}
	mix->nstreams = total;
	mix->needed = sm_streams_mix_rate(mix, -1);
	/* the groups as the mix names them, comma-separated: its name in
	 * every layout */
	for (unsigned k = 0; k < mix->ngroups; k++) {
		size_t used = strlen(mix->spec);
		char gname[96];

		sm_streams_group_name(&mix->groups[k], gname, sizeof(gname));
		snprintf(mix->spec + used, sizeof(mix->spec) - used, "%s%s", k ? "," : "", gname);
	}
	return 0;
}

void sm_streams_mix_release(struct sm_streams_mix *mix)
{
	free(mix->groups);
	mix->groups = NULL;
	mix->ngroups = 0;
	mix->nstreams = 0;
}

double sm_streams_mix_rate(const struct sm_streams_mix *mix, int dir)
{
	double r = 0;

	for (unsigned k = 0; mix && k < mix->ngroups; k++)
		if (dir < 0 || (int)mix->groups[k].dir == dir)
			r += mix->groups[k].needed;
	return r;
}
