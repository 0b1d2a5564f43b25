/* SPDX-License-Identifier: MIT */
/* Loading a saved result: what may be read (a file or a pipe, not a
 * device), the memory its parsed tree will take (counted from the text and
 * checked against the memory available before it is parsed), and the
 * parse itself (one JSON document, nothing after it). */
#include "result/json_read.h"
#include "core/memcheck.h"
#include "core/units.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Below this a load is not worth a look at the memory available (the
 * reserve of core/memcheck.h covers it many times over). */
#define CHECK_FROM (1u << 20)

/* What malloc takes for a request of n bytes (glibc: an 8-byte header,
 * 16-byte steps, 32 bytes at least). */
static uint64_t heap_bytes(uint64_t n)
{
	n = (n + 8 + 15) / 16 * 16;
	return n < 32 ? 32 : n;
}

void sm_json_shape_of(const char *text, size_t len, struct sm_json_shape *s)
{
	uint64_t strings = 0, str_heap = 0, colons = 0, depth = 0, depth_max = 0;
	int prev = 0;   /* the last significant byte outside a string */

	memset(s, 0, sizeof(*s));
	s->text_bytes = len;
	for (size_t i = 0; i < len; i++) {
		char c = text[i];

		if (c == '"') {   /* a string: a key or a value, each its own allocation */
			size_t j = i + 1;

			while (j < len && text[j] != '"')
				j += text[j] == '\\' ? 2 : 1;
			strings++;
			str_heap += heap_bytes(j - i);   /* its bytes, unescaped, and the NUL */
			i = j;
			prev = '"';
			continue;
		}
		switch (c) {
		case ' ': case '\t': case '\n': case '\r':
			continue;
		case '{': case '[':
			s->values++;
			if (++depth > depth_max)
				depth_max = depth;
			break;
		case '}': case ']':
			if (depth)
				depth--;
			break;
		case ':':
			colons++;
			break;
		case ',':
			break;
		default:   /* a number, true, false or null starts after [ , : or at the start */
			if (!prev || prev == '[' || prev == ',' || prev == ':')
				s->values++;
		}
		prev = c;
	}
	/* every string is a value but the keys (one per colon) */
	s->values += strings > colons ? strings - colons : 0;
	s->tree_bytes = s->values * heap_bytes(sizeof(cJSON)) + str_heap;
	/* cJSON_Print's formatted text: each value on a line of its own at
	 * most, indented by the depth, its key quoted with ":\t" */
	s->out_bytes = len + s->values * (depth_max + 4);
}

uint64_t sm_json_read_need(const struct sm_json_shape *s, int rewrite)
{
	/* the tree, the result a reader builds from it (its arrays hold in
	 * 8-byte fields what the tree holds in 80-byte nodes: a quarter is
	 * a bound), and for a rewrite a second tree of the same size and its
	 * text, which cJSON_Print builds in a buffer grown by doubling */
	uint64_t need = s->tree_bytes + s->tree_bytes / 4;

	if (rewrite)
		need += s->tree_bytes + 2 * s->out_bytes;
	return need;
}

/* Does parsing a text of shape s fit in the memory available? 0, or
 * -ENOMEM with the need and the limit in e. */
static int check_room(const struct sm_json_shape *s, const char *name, int rewrite, struct sm_jerr *e)
{
	char what[512], a[32], msg[sizeof(e->msg)];
	uint64_t need = sm_json_read_need(s, rewrite);

	if (need < CHECK_FROM)
		return 0;
	snprintf(what, sizeof(what), "reading '%s' (%s of JSON, %llu values)%s", name,
		 sm_fmt_bytes(a, sizeof(a), (double)s->text_bytes), (unsigned long long)s->values,
		 rewrite ? " and writing it again as JSON" : "");
	if (!sm_mem_check(need, what, msg, sizeof(msg)))
		return 0;
	snprintf(e->msg, sizeof(e->msg), "%s", msg);
	return -ENOMEM;
}

/* text[0..len) as one stormark result (see sm_json_parse_text). */
static int parse(const char *text, size_t len, const char *name, int rewrite, cJSON **doc,
		 struct sm_jerr *e)
{
	struct sm_json_shape shape;
	const char *end = NULL;
	const cJSON *v;
	int rc = 0;

	*doc = NULL;
	sm_json_shape_of(text, len, &shape);
	rc = check_room(&shape, name, rewrite, e);
	if (rc)
		return rc;
	if (strlen(text) != len)
		return sm_jerr_set(e, "'%s' is not valid JSON (a NUL byte at byte %zu)", name, strlen(text));
	*doc = cJSON_ParseWithOpts(text, &end, 0);
	if (!*doc) {
		const char *at = cJSON_GetErrorPtr();

		return sm_jerr_set(e, "'%s' is not valid JSON (%s at byte %ld)", name,
				   at && !*at ? "it ends too early" : "syntax error",
				   at ? (long)(at - text) : 0L);
	}
	while (end && *end && strchr(" \t\r\n", *end))
		end++;
	if (end && *end) {
		rc = sm_jerr_set(e, "'%s' holds more than one JSON document (more text at byte %ld)",
				 name, (long)(end - text));
		goto out;
	}
	if (!cJSON_IsObject(*doc)) {
		rc = sm_jerr_set(e, "'%s' is not a stormark result (not a JSON object)", name);
		goto out;
	}
	v = cJSON_GetObjectItemCaseSensitive(*doc, "schema_version");
	if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) || v->valuedouble < 1) {
		rc = sm_jerr_set(e, "'%s' is not a stormark result (no schema_version)", name);
		goto out;
	}
	if (v->valuedouble > SM_SCHEMA_VERSION) {
		rc = sm_jerr_set(e, "'%s' has schema_version %.0f; this stormark reads up to %d "
				 "(a newer stormark wrote it)", name, v->valuedouble, SM_SCHEMA_VERSION);
		goto out;
	}
	if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(*doc, "command")))
		rc = sm_jerr_set(e, "'%s' is not a stormark result (no command)", name);
out:
	if (rc) {
		cJSON_Delete(*doc);
		*doc = NULL;
	}
	return rc;
}

int sm_json_parse_text(const char *text, const char *name, cJSON **doc, struct sm_jerr *e)
{
	return parse(text, strlen(text), name, 0, doc, e);
}

/* The whole of fd into a NUL-terminated buffer (caller frees) of *len
 * bytes: in one piece of the file's size when it has one, else grown by
 * doubling, each step checked against the memory available. Returns the
 * buffer, or NULL with -EFBIG (past SM_JSON_MAX_BYTES), -ENOMEM (e says
 * why when the memory available refused it) or -EIO in *err. */
static char *slurp(int fd, const char *name, size_t *len, int *err, struct sm_jerr *e)
{
	struct stat st;
	size_t cap = 1 << 16, n = 0;
	char *buf, *nb;
	ssize_t r;

	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size <= SM_JSON_MAX_BYTES)
		cap = (size_t)st.st_size + 2;   /* the file's size, the NUL, and room to see its end */
	buf = malloc(cap);
	while (buf) {
		if (n + 1 == cap) {   /* full: the file grew, or a pipe */
			size_t grow = cap < (size_t)SM_JSON_MAX_BYTES + 2 - cap ? cap
				      : (size_t)SM_JSON_MAX_BYTES + 2 - cap;
			char what[512], a[32], msg[sizeof(e->msg)];

			if (n > SM_JSON_MAX_BYTES || !grow) {   /* /dev/zero in a pipe: stop there */
				free(buf);
				*err = -EFBIG;
				return NULL;
			}
			snprintf(what, sizeof(what), "reading '%s' (%s so far)", name,
				 sm_fmt_bytes(a, sizeof(a), (double)n));
			if (grow >= CHECK_FROM && sm_mem_check(grow, what, msg, sizeof(msg))) {
				snprintf(e->msg, sizeof(e->msg), "%s", msg);
				free(buf);
				*err = -ENOMEM;
				return NULL;
			}
			nb = realloc(buf, cap + grow);
			if (!nb)
				break;
			buf = nb;
			cap += grow;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*err = -errno;
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (!buf || n + 1 > cap) {
		free(buf);
		*err = -ENOMEM;
		return NULL;
	}
	if (n > SM_JSON_MAX_BYTES) {
		free(buf);
		*err = -EFBIG;
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Why what st describes is not read as a result (a device is read without
 * end, /dev/zero, or is a disk), or NULL. A terminal on standard input is
 * read: someone may type or paste a result. */
static const char *not_readable(const struct stat *st, int is_stdin)
{
	if (S_ISCHR(st->st_mode) && !(is_stdin && isatty(STDIN_FILENO)))
		return "a character device";
	if (S_ISBLK(st->st_mode))
		return "a block device";
	if (S_ISSOCK(st->st_mode))
		return "a socket";
	if (S_ISDIR(st->st_mode))
		return "a directory";
	return NULL;
}

int sm_json_load(const char *path, int rewrite, cJSON **doc, struct sm_jerr *e)
{
	int is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? "standard input" : path, *why;
	struct stat st;
	size_t len = 0;
	char *text = NULL;
	int fd, rc = 0;

	*doc = NULL;
	/* before opening it: opening a device can act on it (a tape rewinds) */
	if ((is_stdin ? fstat(STDIN_FILENO, &st) : stat(path, &st)) == 0 &&
	    (why = not_readable(&st, is_stdin))) {
		snprintf(e->msg, sizeof(e->msg), "'%s' is %s, not a saved result", name, why);
		return -EINVAL;
	}
	fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		rc = -errno;
		snprintf(e->msg, sizeof(e->msg), "cannot open '%s': %s", path, strerror(-rc));
		return rc;
	}
	/* what was opened, in case the path changed in between */
	if (!fstat(fd, &st) && (why = not_readable(&st, is_stdin))) {
		snprintf(e->msg, sizeof(e->msg), "'%s' is %s, not a saved result", name, why);
		rc = -EINVAL;
	} else {
		text = slurp(fd, is_stdin ? "-" : path, &len, &rc, e);
	}
	if (!is_stdin)
		close(fd);
	if (rc == -EINVAL)
		return rc;
	if (!text && rc == -EFBIG) {
		snprintf(e->msg, sizeof(e->msg), "'%s' is over %d MiB: not a stormark result",
			 is_stdin ? "-" : path, SM_JSON_MAX_BYTES >> 20);
		return rc;
	}
	if (!text && rc == -ENOMEM && e->msg[0])
		return rc;
	if (!text) {
		snprintf(e->msg, sizeof(e->msg), "cannot read '%s': %s", path, strerror(-rc));
		return rc;
	}
	rc = parse(text, len, path, rewrite, doc, e);
	free(text);
	return rc;
}
