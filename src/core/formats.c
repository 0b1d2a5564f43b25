/* SPDX-License-Identifier: MIT */
/* Frame-sequence formats, frame rates and frametest presets (the sizing
 * rules and their sources are in docs/formats.md). */
#include "core/formats.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * Header allowances. DPX: SMPTE 268M's generic (1664 B) plus industry
 * (384 B) header, 2048 B, the least a DPX file carries before its image
 * data. EXR: magic, version and the required attributes of an
 * uncompressed scanline file fit in 1 KiB; each scanline is then one chunk
 * with an 8-byte offset-table entry and an 8-byte chunk header (y, size).
 * TIFF: 8-byte header plus one IFD of baseline tags in 1 KiB, and one strip
 * per row (8 B of StripOffsets/StripByteCounts each) as an upper bound.
 * Whatever the allowance, the frame is then rounded up to 4 KiB.
 */
const struct sm_family sm_families[] = {
	{ "dpx", "DPX 10-bit RGB", 4, 1, 2048, 0, 4, 0 },
	{ "dpx16", "DPX 16-bit RGB", 6, 1, 2048, 0, 4, 0 },
	{ "exr-half", "OpenEXR half RGB, uncompressed", 6, 1, 1024, 16, 1, 0 },
	{ "exr-half-rgba", "OpenEXR half RGBA, uncompressed", 8, 1, 1024, 16, 1, 0 },
	{ "exr-float", "OpenEXR float RGB, uncompressed", 12, 1, 1024, 16, 1, 0 },
	{ "tiff16", "TIFF 16-bit RGB, uncompressed", 6, 1, 1024, 8, 1, 0 },
	{ "v210", "10-bit 4:2:2 YCbCr (v210)", 8, 3, 0, 0, 128, 1 },
};
const unsigned sm_nfamilies = sizeof(sm_families) / sizeof(sm_families[0]);

const struct sm_geometry sm_geometries[] = {
	{ "sd-ntsc", "SD NTSC", 720, 486, 0 },
	{ "sd-pal", "SD PAL", 720, 576, 0 },
	{ "hd720", "HD 720p", 1280, 720, 0 },
	{ "hd", "HD 1080", 1920, 1080, 0 },
	{ "2k-dci", "2K DCI", 2048, 1080, 0 },
	{ "2k", "2K full aperture", 2048, 1556, 1 },
	{ "uhd", "UHD", 3840, 2160, 0 },
	{ "4k-dci", "4K DCI", 4096, 2160, 0 },
	{ "4k", "4K full aperture", 4096, 3112, 1 },
	{ "8k-uhd", "8K UHD", 7680, 4320, 0 },
	{ "8k-dci", "8K DCI", 8192, 4320, 0 },
};
const unsigned sm_ngeometries = sizeof(sm_geometries) / sizeof(sm_geometries[0]);

const struct sm_fps sm_frame_rates[] = {
	{ "23.976", 24000, 1001 }, { "24", 24, 1 },       { "25", 25, 1 },
	{ "29.97", 30000, 1001 },  { "30", 30, 1 },       { "48", 48, 1 },
	{ "50", 50, 1 },           { "59.94", 60000, 1001 }, { "60", 60, 1 },
	{ "120", 120, 1 },
};
const unsigned sm_nframe_rates = sizeof(sm_frame_rates) / sizeof(sm_frame_rates[0]);

/* frametest's four presets, then stormark's by the same rule. */
const struct sm_ft_preset sm_ft_presets[] = {
	{ "sd", 720, 480, 1416, 1 },
	{ "hd", 1920, 1080, 8164, 1 },
	{ "2k", 2048, 1556, 12512, 1 },
	{ "4k", 4096, 3112, 49856, 1 },
	{ "pal", 720, 576, 1684, 0 },
	{ "hd720", 1280, 720, 3664, 0 },
	{ "fullhd", 1920, 1080, 8164, 0 },
	{ "2kdci", 2048, 1080, 8704, 0 },
	{ "uhd", 3840, 2160, 32464, 0 },
	{ "4kdci", 4096, 2160, 34624, 0 },
	{ "8k", 7680, 4320, 129664, 0 },
	{ "8kdci", 8192, 4320, 138304, 0 },
};
const unsigned sm_nft_presets = sizeof(sm_ft_presets) / sizeof(sm_ft_presets[0]);

double sm_fps_value(const struct sm_fps *r)
{
	return (double)r->num / (double)r->den;
}

const struct sm_fps *sm_fps_find(const char *name)
{
	for (unsigned i = 0; i < sm_nframe_rates; i++)
		if (!strcmp(sm_frame_rates[i].name, name))
			return &sm_frame_rates[i];
	return NULL;
}

int sm_fps_list(const char *list, const struct sm_fps **out, unsigned max, unsigned *n, char *bad,
		size_t badlen)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int rc = 0;

	*n = 0;
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct sm_fps *r = sm_fps_find(tok);

		if (!r || *n == max) {
			snprintf(bad, badlen, "%s", tok);
			rc = r ? -E2BIG : -ENOENT;
			break;
		}
		out[(*n)++] = r;
	}
	free(copy);
	if (!rc && !*n) {
		snprintf(bad, badlen, "%s", list);
		rc = -ENODATA;
	}
	return rc;
}

uint64_t sm_family_row_bytes(const struct sm_family *f, unsigned w)
{
	uint64_t raw = ((uint64_t)w * f->bpp_num + f->bpp_den - 1) / f->bpp_den;
	uint64_t a = f->row_align_bytes ? f->row_align_bytes : 1;

	return (raw + a - 1) / a * a;
}

int sm_format_make(const struct sm_family *f, const struct sm_geometry *g,
		   struct sm_format *out)
{
	uint64_t row;

	if (f->video_only && g->film_scan)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s-%s", f->name, g->name);
	out->family = f;
	out->geometry = g;
	out->width = g->width;
	out->height = g->height;
	row = sm_family_row_bytes(f, g->width);
	out->image_bytes = row * g->height;
	out->frame_bytes = sm_round_up(out->image_bytes + f->header_bytes +
				       (uint64_t)f->row_extra_bytes * g->height, SM_FRAME_ALIGN);
	return 0;
}

unsigned sm_format_count(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < sm_nfamilies; i++)
		for (unsigned j = 0; j < sm_ngeometries; j++)
			n += !(sm_families[i].video_only && sm_geometries[j].film_scan);
	return n;
}

int sm_format_at(unsigned idx, struct sm_format *out)
{
	for (unsigned i = 0; i < sm_nfamilies; i++)
		for (unsigned j = 0; j < sm_ngeometries; j++)
			if (sm_format_make(&sm_families[i], &sm_geometries[j], out) == 0 &&
			    idx-- == 0)
				return 0;
	return -ERANGE;
}

int sm_format_find(const char *name, struct sm_format *out)
{
	struct sm_format f;

	/* one pass over the combinations (sm_format_at() per index would go
	 * over them again for each: a run's command line looked up 14 names) */
	for (unsigned i = 0; i < sm_nfamilies; i++)
		for (unsigned j = 0; j < sm_ngeometries; j++)
			if (sm_format_make(&sm_families[i], &sm_geometries[j], &f) == 0 &&
			    !strcasecmp(f.name, name)) {
				*out = f;
				return 0;
			}
	return -ENOENT;
}

double sm_format_rate(const struct sm_format *fmt, const struct sm_fps *r)
{
	return (double)fmt->frame_bytes * (double)r->num / (double)r->den;
}

uint64_t sm_ft_preset_kib(const char *name)
{
	for (unsigned i = 0; i < sm_nft_presets; i++)
		if (!strcasecmp(sm_ft_presets[i].name, name))
			return sm_ft_presets[i].kib;
	return 0;
}
