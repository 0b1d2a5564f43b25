/* SPDX-License-Identifier: MIT */
/* Compressed stream formats: Apple ProRes and Avid DNxHR at HD, UHD and 4K
 * DCI, and Sony camera originals (XAVC S, XAVC S-I, XAVC HS), with the
 * vendors' published figures (sources in docs/formats.md). */
#include "core/sformats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

const char *const sm_sformat_sources[] = {
	"Apple ProRes White Paper (April 2022), Appendix: Target Data Rates",
	"Avid DNxHR Codec Bandwidth Specifications (Avid Knowledge Base, 2015)",
	"stormark --rate-mib (a test format, no codec)",
	"Sony Help Guide (Cyber-shot, helpguide.sony.net/dsc/1720), Recordable movie times",
	"Sony Help Guides (helpguide.sony.net/ilc/2410 and ilc/2035), Recordable movie times",
	"Sony Help Guide (helpguide.sony.net/ilc/2210), Recordable movie times (firmware 3.00)",
	"stormark's frame-sequence table (docs/formats.md, \"The rule\")",
};

/* The index of the frame-sequence entry of sm_sformat_sources. */
#define SOURCE_SEQUENCE 6

#define PR(fl, desc, geo, w, h, a, b, c, d, e) \
	{ "prores-" fl "-" geo, "Apple ProRes " desc, geo, w, h, SM_SFMT_MBPS_PER_COLUMN, \
	  { a, b, c, d, e }, 0, 0, 0 }
#define DX(fl, desc, geo, w, h, bytes) \
	{ "dnxhr-" fl "-" geo, "Avid DNxHR " desc, geo, w, h, SM_SFMT_BYTES_PER_FRAME, \
	  { 0 }, bytes, 0, 1 }
/* A camera's record setting: its nominal Mbit/s at 24p, 25p, 30p, 50p, 60p
 * (0: the source names no such setting). */
#define CAM(nm, desc, geo, w, h, src, a, b, c, d, e) \
	{ nm "-" geo, desc, geo, w, h, SM_SFMT_MBPS_NOMINAL, { a, b, c, d, e }, 0, 0, src }

/* ProRes: Mbit/s at 24p, 25p, 30p, 50p, 60p (4444 and 4444 XQ: the
 * table's figures without alpha). DNxHR: bytes per frame. */
static const struct sm_sformat table[] = {
	PR("proxy", "422 Proxy", "hd", 1920, 1080, 36, 38, 45, 76, 91),
	PR("lt", "422 LT", "hd", 1920, 1080, 82, 85, 102, 170, 204),
	PR("422", "422", "hd", 1920, 1080, 117, 122, 147, 245, 293),
	PR("hq", "422 HQ", "hd", 1920, 1080, 176, 184, 220, 367, 440),
	PR("4444", "4444", "hd", 1920, 1080, 264, 275, 330, 551, 660),
	PR("4444xq", "4444 XQ", "hd", 1920, 1080, 396, 413, 495, 826, 990),
	PR("proxy", "422 Proxy", "uhd", 3840, 2160, 145, 151, 182, 303, 363),
	PR("lt", "422 LT", "uhd", 3840, 2160, 328, 342, 410, 684, 821),
	PR("422", "422", "uhd", 3840, 2160, 471, 492, 589, 983, 1178),
	PR("hq", "422 HQ", "uhd", 3840, 2160, 707, 737, 884, 1475, 1768),
	PR("4444", "4444", "uhd", 3840, 2160, 1061, 1106, 1326, 2212, 2652),
	PR("4444xq", "4444 XQ", "uhd", 3840, 2160, 1591, 1659, 1989, 3318, 3977),
	PR("proxy", "422 Proxy", "4k-dci", 4096, 2160, 155, 162, 194, 323, 388),
	PR("lt", "422 LT", "4k-dci", 4096, 2160, 350, 365, 437, 730, 875),
	PR("422", "422", "4k-dci", 4096, 2160, 503, 524, 629, 1048, 1257),
	PR("hq", "422 HQ", "4k-dci", 4096, 2160, 755, 787, 944, 1573, 1884),
	PR("4444", "4444", "4k-dci", 4096, 2160, 1130, 1179, 1415, 2359, 2827),
	PR("4444xq", "4444 XQ", "4k-dci", 4096, 2160, 1697, 1769, 2123, 3546, 4251),
	DX("lb", "LB", "hd", 1920, 1080, 188416),
	DX("sq", "SQ", "hd", 1920, 1080, 602112),
	DX("hq", "HQ", "hd", 1920, 1080, 909312),
	DX("hqx", "HQX", "hd", 1920, 1080, 909312),
	DX("444", "444", "hd", 1920, 1080, 1822720),
	DX("lb", "LB", "uhd", 3840, 2160, 749568),
	DX("sq", "SQ", "uhd", 3840, 2160, 2408448),
	DX("hq", "HQ", "uhd", 3840, 2160, 3641344),
	DX("hqx", "HQX", "uhd", 3840, 2160, 3641344),
	DX("444", "444", "uhd", 3840, 2160, 7286784),
	DX("lb", "LB", "4k-dci", 4096, 2160, 798720),
	DX("sq", "SQ", "4k-dci", 4096, 2160, 2568192),
	DX("hq", "HQ", "4k-dci", 4096, 2160, 3887104),
	DX("hqx", "HQX", "4k-dci", 4096, 2160, 3887104),
	DX("444", "444", "4k-dci", 4096, 2160, 7770112),
	/* Sony's record settings as its Help Guides name them ("XAVC S 4K 30p
	 * 100M/25p 100M", "XAVC S-I 4K 60p 600M / 50p 500M"); every figure
	 * from a Sony page (docs/formats.md), none from a third party. */
	CAM("xavc-s-100", "Sony XAVC S 100M (H.264)", "uhd", 3840, 2160, 3, 100, 100, 100, 0, 0),
	CAM("xavc-s-60", "Sony XAVC S 60M (H.264)", "uhd", 3840, 2160, 3, 60, 60, 60, 0, 0),
	CAM("xavc-s-200", "Sony XAVC S 200M (H.264)", "uhd", 3840, 2160, 4, 0, 0, 0, 200, 200),
	CAM("xavc-s-150", "Sony XAVC S 150M (H.264)", "uhd", 3840, 2160, 4, 0, 0, 0, 150, 150),
	CAM("xavc-s-50", "Sony XAVC S 50M (H.264)", "hd", 1920, 1080, 3, 50, 50, 50, 50, 50),
	CAM("xavc-s-25", "Sony XAVC S 25M (H.264)", "hd", 1920, 1080, 3, 0, 0, 0, 25, 25),
	CAM("xavc-s-16", "Sony XAVC S 16M (H.264)", "hd", 1920, 1080, 3, 0, 16, 16, 0, 0),
	CAM("xavc-hs-200", "Sony XAVC HS 200M (HEVC)", "uhd", 3840, 2160, 4, 0, 0, 0, 200, 200),
	CAM("xavc-hs-150", "Sony XAVC HS 150M (HEVC)", "uhd", 3840, 2160, 4, 0, 0, 0, 150, 150),
	CAM("xavc-hs-100", "Sony XAVC HS 100M (HEVC)", "uhd", 3840, 2160, 4, 0, 0, 0, 100, 100),
	CAM("xavc-hs-75", "Sony XAVC HS 75M (HEVC)", "uhd", 3840, 2160, 4, 0, 0, 0, 75, 75),
	CAM("xavc-hs-45", "Sony XAVC HS 45M (HEVC)", "uhd", 3840, 2160, 4, 0, 0, 0, 45, 45),
	CAM("xavc-s-i", "Sony XAVC S-I (AVC Intra)", "uhd", 3840, 2160, 4, 0, 0, 0, 500, 600),
	CAM("xavc-s-i", "Sony XAVC S-I (AVC Intra)", "hd", 1920, 1080, 4, 0, 0, 0, 185, 222),
	CAM("xavc-s-i", "Sony XAVC S-I (AVC Intra)", "4k-dci", 4096, 2160, 5, 0, 0, 0, 500, 600),
};

unsigned sm_sformat_count(void)
{
	return sizeof(table) / sizeof(table[0]);
}

int sm_sformat_at(unsigned i, struct sm_sformat *out)
{
	if (i >= sm_sformat_count())
		return -ERANGE;
	*out = table[i];
	return 0;
}

void sm_sformat_sequence(const struct sm_format *fmt, struct sm_sformat *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", fmt->name);
	out->codec = fmt->family->desc;
	out->geometry = fmt->geometry->name;
	out->width = fmt->width;
	out->height = fmt->height;
	out->rule = SM_SFMT_SEQUENCE;
	out->bytes_per_frame = fmt->frame_bytes;
	out->source = SOURCE_SEQUENCE;
}

int sm_sformat_find(const char *name, struct sm_sformat *out)
{
	struct sm_format fmt;

	for (unsigned i = 0; i < sm_sformat_count(); i++)
		if (!strcasecmp(table[i].name, name)) {
			*out = table[i];
			return 0;
		}
	if (sm_format_find(name, &fmt))
		return -ENOENT;
	sm_sformat_sequence(&fmt, out);
	return 0;
}

int sm_sformat_custom(double mib_s, struct sm_sformat *out)
{
	if (!isfinite(mib_s) || !(mib_s > 0))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "custom-%gmib", mib_s);
	out->codec = "custom rate";
	out->geometry = "";
	out->rule = SM_SFMT_CUSTOM;
	out->custom_bytes_s = mib_s * 1048576.0;
	out->source = 2;
	return 0;
}

/* The column a frame rate uses: 23.976 and 24 -> 24p, 25 -> 25p, 29.97
 * and 30 -> 30p, 50 -> 50p, 59.94 and 60 -> 60p; -1 when there is none. */
static int column(const struct sm_fps *r)
{
	static const unsigned nominal[5] = { 24, 25, 30, 50, 60 };
	double fps = sm_fps_value(r);

	for (int i = 0; i < 5; i++)
		if (fabs(fps - nominal[i]) < 0.1)   /* 24 and 24000/1001 */
			return i;
	return -1;
}

double sm_sformat_frame_bytes(const struct sm_sformat *f, const struct sm_fps *r)
{
	static const unsigned nominal[5] = { 24, 25, 30, 50, 60 };
	int c = column(r);

	switch (f->rule) {
	case SM_SFMT_MBPS_PER_COLUMN:
		return c < 0 ? 0 : (double)f->mbps[c] * 1e6 / 8.0 / nominal[c];
	case SM_SFMT_MBPS_NOMINAL:
		return c < 0 ? 0 : (double)f->mbps[c] * 1e6 / 8.0 / sm_fps_value(r);
	case SM_SFMT_BYTES_PER_FRAME:
		return c < 0 ? 0 : (double)f->bytes_per_frame;
	case SM_SFMT_CUSTOM:
		return f->custom_bytes_s / sm_fps_value(r);
	case SM_SFMT_SEQUENCE:
		return (double)f->bytes_per_frame;
	}
	return 0;
}

uint64_t sm_sformat_chunk(const struct sm_sformat *f, const struct sm_fps *r)
{
	double b = sm_sformat_frame_bytes(f, r);

	if (!(b > 0))
		return 0;
	return sm_round_up((uint64_t)ceil(b), SM_FRAME_ALIGN);
}

uint64_t sm_sformat_offset(double frame_bytes, uint64_t k)
{
	if (!(frame_bytes >= SM_FRAME_ALIGN))
		return k * SM_FRAME_ALIGN;
	/* exact in a double up to 2^53 bytes: k x frame_bytes of a 1000 s
	 * step of the heaviest format is about 10^12 */
	return (uint64_t)floor((double)k * frame_bytes / SM_FRAME_ALIGN) * SM_FRAME_ALIGN;
}

double sm_sformat_moved_rate(const struct sm_sformat *f, const struct sm_fps *r)
{
	double b = sm_sformat_frame_bytes(f, r);

	if (!(b > 0))
		return 0;
	return (b >= SM_FRAME_ALIGN ? b : SM_FRAME_ALIGN) * sm_fps_value(r);
}

double sm_sformat_rate(const struct sm_sformat *f, const struct sm_fps *r)
{
	return sm_sformat_frame_bytes(f, r) * sm_fps_value(r);
}
