/* SPDX-License-Identifier: MIT */
/* The built-in table of compressed stream formats (Apple ProRes, Avid
 * DNxHR, Sony XAVC camera originals): one file per clip, read or written as a stream of frames at the
 * vendor's published data rate. Rates and their sources: docs/formats.md. */
#ifndef SM_CORE_SFORMATS_H
#define SM_CORE_SFORMATS_H

#include <stdint.h>

#include "core/formats.h"

/* How a codec's published figures are given. */
enum sm_sformat_rule {
	/* Apple's table: a target bit rate (Mbit/s, 10^6 bit) per column of
	 * 24p, 25p, 30p, 50p, 60p; ProRes targets a size per frame, so one
	 * frame is rate / column fps, and 23.976, 29.97, 59.94 take the
	 * frame size of 24p, 30p, 60p. */
	SM_SFMT_MBPS_PER_COLUMN = 0,
	/* Avid's table: a fixed size per frame (bytes), the same at every
	 * frame rate (DNxHR is constant bit rate per frame). */
	SM_SFMT_BYTES_PER_FRAME,
	/* A camera's record setting (Sony's "60p 600M"): the nominal Mbit/s
	 * of the setting at each column of 24p, 25p, 30p, 50p, 60p, and the
	 * same Mbit/s at 23.976, 29.97, 59.94 (cameras name the NTSC rates
	 * 24p, 30p, 60p); one frame = rate / the actual fps. A column of 0:
	 * the source names no setting at that rate, so it is undefined. */
	SM_SFMT_MBPS_NOMINAL,
	/* --rate-mib: a made-up format of R MiB/s at any frame rate. */
	SM_SFMT_CUSTOM,
	/* An uncompressed frame-sequence format of core/formats.h (frames
	 * --list-formats): one file per frame of bytes_per_frame (a whole
	 * number of 4 KiB blocks), the same at every frame rate of
	 * sm_frame_rates. */
	SM_SFMT_SEQUENCE,
};

/* One stream format: a codec flavour at a geometry (one file per clip), or
 * a frame-sequence format (one file per frame, rule SM_SFMT_SEQUENCE). */
struct sm_sformat {
	char name[40];              /* "prores-hq-uhd", "xavc-s-i-uhd", "custom-25mib",
				     * "dpx-2k" */
	const char *codec;          /* "Apple ProRes 422 HQ", "DPX 10-bit RGB" */
	const char *geometry;       /* "uhd" (names of core/formats.h) */
	unsigned width, height;
	enum sm_sformat_rule rule;
	unsigned mbps[5];           /* MBPS_PER_COLUMN, MBPS_NOMINAL: at 24p, 25p,
				     * 30p, 50p, 60p (0: none at that rate) */
	uint64_t bytes_per_frame;   /* BYTES_PER_FRAME, SEQUENCE */
	double custom_bytes_s;      /* CUSTOM: bytes per second */
	unsigned source;            /* index into sm_sformat_sources */
};

/* Where a codec's figures come from (cited in docs/formats.md). */
extern const char *const sm_sformat_sources[];

/* Number of compressed formats in the table, and the i-th (0 <= i <
 * count) into *out. Returns 0 or -ERANGE. The frame-sequence formats are
 * core/formats.h's (sm_format_count, sm_sformat_sequence). */
unsigned sm_sformat_count(void);
int sm_sformat_at(unsigned i, struct sm_sformat *out);

/* Look a format up by name, case-insensitive: a compressed format of the
 * table, else a frame-sequence format of core/formats.h ("dpx-2k").
 * Returns 0 or -ENOENT. */
int sm_sformat_find(const char *name, struct sm_sformat *out);

/* The frame-sequence format fmt as a stream format (rule SM_SFMT_SEQUENCE:
 * one file per frame of fmt->frame_bytes, defined at every frame rate). */
void sm_sformat_sequence(const struct sm_format *fmt, struct sm_sformat *out);

/* 1 when f is a frame-sequence format (one file per frame), else 0. */
static inline int sm_sformat_is_sequence(const struct sm_sformat *f)
{
	return f->rule == SM_SFMT_SEQUENCE;
}

/* A custom format of mib_s MiB/s (> 0): name "custom-<R>mib". Returns 0,
 * or -EINVAL for a rate <= 0 or not finite. */
int sm_sformat_custom(double mib_s, struct sm_sformat *out);

/*
 * One frame of f at rate r as the vendor's figure gives it, in bytes (may
 * have a fraction: a bit rate divided by the frame rate). Returns it, or 0
 * when f is not defined at r (a rate its table has no column for: 48, 120;
 * a camera setting its source does not name at r).
 */
double sm_sformat_frame_bytes(const struct sm_sformat *f, const struct sm_fps *r);

/* The largest chunk a stream moves in one frame interval: the frame rounded
 * UP to SM_FRAME_ALIGN (4 KiB); 0 when undefined. Frames move by the byte
 * schedule of sm_sformat_offset(), so most chunks are smaller. */
uint64_t sm_sformat_chunk(const struct sm_sformat *f, const struct sm_fps *r);

/*
 * The byte schedule of a stream of frames of frame_bytes each (the
 * vendor's figure, which may have a fraction): frame k moves the bytes
 * [off(k), off(k + 1)) of its file, off(k) = floor(k x frame_bytes / 4 KiB)
 * x 4 KiB. Every request is whole 4 KiB blocks at a 4 KiB offset, as direct
 * I/O needs, at most sm_sformat_chunk() long, and the first k frames move
 * within one block of k x frame_bytes: the published rate, where rounding
 * each frame up would add up to 4 KiB a frame (4.9% for xavc-s-25-hd at
 * 50 fps). A frame under 4 KiB moves one block (off(k) = k x 4 KiB), more
 * than its rate: sm_sformat_moved_rate() says how much. Returns off(k).
 */
uint64_t sm_sformat_offset(double frame_bytes, uint64_t k);

/* The rate a stream of f at r moves by that schedule in the long run,
 * bytes/s: the published rate, or one block per frame for a frame under
 * 4 KiB; 0 when undefined. */
double sm_sformat_moved_rate(const struct sm_sformat *f, const struct sm_fps *r);

/* The published data rate of f at r, bytes/s (frame bytes x fps), 0 when
 * undefined. */
double sm_sformat_rate(const struct sm_sformat *f, const struct sm_fps *r);

#endif
