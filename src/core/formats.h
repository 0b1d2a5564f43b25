/* SPDX-License-Identifier: MIT */
/* The built-in table of uncompressed frame-sequence formats (family x
 * geometry, with their frame sizes), frame rates, and frametest's size
 * presets. Rules and sources are in docs/formats.md. */
#ifndef SM_CORE_FORMATS_H
#define SM_CORE_FORMATS_H

#include <stddef.h>
#include <stdint.h>

/* Every frame size is rounded up to this, so direct I/O can move it. */
#define SM_FRAME_ALIGN 4096u

/* A pixel format family: bytes per pixel as a fraction, a fixed header,
 * a per-row overhead, and the alignment every row is padded to. */
struct sm_family {
	const char *name;          /* "dpx", "exr-half", "v210", ... */
	const char *desc;          /* "DPX 10-bit RGB" */
	unsigned bpp_num, bpp_den; /* bytes per pixel = num / den */
	unsigned header_bytes;     /* fixed header before the image data */
	unsigned row_extra_bytes;  /* per scanline (EXR offset table + chunk header) */
	unsigned row_align_bytes;  /* rows padded to a multiple of this (1 = none);
				    * v210: 128 B, i.e. groups of 48 pixels */
	unsigned video_only;       /* 1: only for video geometries (not film scans) */
};

/* A picture geometry. */
struct sm_geometry {
	const char *name;          /* "hd", "2k", "uhd", ... */
	const char *desc;          /* "2K full aperture" */
	unsigned width, height;
	unsigned film_scan;        /* 1: a film-scan geometry (full aperture) */
};

/* One format of the table: a family at a geometry. */
struct sm_format {
	char name[40];             /* "<family>-<geometry>", e.g. "dpx-2k" */
	const struct sm_family *family;
	const struct sm_geometry *geometry;
	unsigned width, height;
	uint64_t image_bytes;      /* pixel data with row padding, no header */
	uint64_t frame_bytes;      /* image + header + per-row data, rounded up to 4 KiB */
};

/* A frame rate as an exact fraction (23.976 is 24000/1001). */
struct sm_fps {
	const char *name;          /* "23.976", "24", ... */
	unsigned num, den;
};

/* The tables: families, geometries and frame rates, in display order. */
extern const struct sm_family sm_families[];
extern const unsigned sm_nfamilies;
extern const struct sm_geometry sm_geometries[];
extern const unsigned sm_ngeometries;
extern const struct sm_fps sm_frame_rates[];
extern const unsigned sm_nframe_rates;

/* Frames per second of r as a double. */
double sm_fps_value(const struct sm_fps *r);

/* The frame rate named name ("24", "29.97"), or NULL. */
const struct sm_fps *sm_fps_find(const char *name);

/* The frame rates of list, comma-separated names ("24,25,59.94"), into
 * out[0..*n) (at most max). Returns 0; -ENOENT (bad: the name that is
 * none), -ENODATA (no name at all; bad: list), -E2BIG (more than max;
 * bad: the first one over) or -ENOMEM. */
int sm_fps_list(const char *list, const struct sm_fps **out, unsigned max, unsigned *n, char *bad,
		size_t badlen);

/* Bytes of one row of pixel data of family f, width w (with row padding). */
uint64_t sm_family_row_bytes(const struct sm_family *f, unsigned w);

/* Fill *out with family f at geometry g. Returns 0, or -EINVAL when the
 * pair is not in the table (a video-only family at a film-scan geometry). */
int sm_format_make(const struct sm_family *f, const struct sm_geometry *g,
		   struct sm_format *out);

/* Number of formats in the table (valid family x geometry pairs). */
unsigned sm_format_count(void);

/* The i-th format of the table (0 <= i < sm_format_count()), family-major.
 * Returns 0, or -ERANGE past the end. */
int sm_format_at(unsigned i, struct sm_format *out);

/* Look a format up by name ("dpx-2k", "exr-half-uhd"), case-insensitive.
 * Returns 0 with *out filled, or -ENOENT for an unknown name. */
int sm_format_find(const char *name, struct sm_format *out);

/* Data rate the format needs at rate r: frame_bytes x fps, bytes/s. */
double sm_format_rate(const struct sm_format *fmt, const struct sm_fps *r);

/* frametest's size presets: "sd", "hd", "2k", "4k" (exact sizes of the
 * original) and stormark's extra ones ("fullhd", "uhd", "4kdci", "8k", ...)
 * by the same rule: width x height x 4 + 64 KiB, rounded up to 4 KiB. */
struct sm_ft_preset {
	const char *name;
	unsigned width, height;
	uint64_t kib;              /* frame size in KiB */
	int original;              /* 1: one of frametest's own four */
};
extern const struct sm_ft_preset sm_ft_presets[];
extern const unsigned sm_nft_presets;

/* Frame size in KiB of frametest preset name (case-insensitive), or 0 when
 * there is no such preset. */
uint64_t sm_ft_preset_kib(const char *name);

/* Round n up to a multiple of align (a power of two). */
static inline uint64_t sm_round_up(uint64_t n, uint64_t align)
{
	return (n + align - 1) & ~(align - 1);
}

#endif
