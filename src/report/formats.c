/* SPDX-License-Identifier: MIT */
/* The catalogues of formats a command can be given: frames' sizes and
 * video formats (--list-formats), streams' formats and their published
 * rates (--list: compressed, then frame sequences). */
#include "report/formats.h"

#include "core/formats.h"
#include "core/sformats.h"

void sm_report_video_formats(FILE *out)
{
	struct sm_format f;

	fprintf(out, "frametest size presets (-w NAME):\n");
	for (unsigned i = 0; i < sm_nft_presets; i++)
		fprintf(out, "  %-8s %5ux%-5u %8llu KiB%s\n", sm_ft_presets[i].name, sm_ft_presets[i].width,
			sm_ft_presets[i].height, (unsigned long long)sm_ft_presets[i].kib,
			sm_ft_presets[i].original ? "  (frametest's own)" : "");
	fprintf(out, "\nvideo formats (--video-format NAME):\n");
	for (unsigned i = 0; sm_format_at(i, &f) == 0; i++)
		fprintf(out, "  %-22s %5ux%-5u %12llu bytes/frame  %s\n", f.name, f.width, f.height,
			(unsigned long long)f.frame_bytes, f.family->desc);
}

void sm_report_stream_formats(FILE *f)
{
	static const char *const show[] = { "23.976", "24", "25", "29.97", "30", "50", "59.94", "60" };

	fprintf(f, "%-22s %-26s", "format", "codec");
	for (unsigned k = 0; k < 8; k++)
		fprintf(f, " %8s", show[k]);
	fputs("   (MiB/s per stream at each fps; -: none published)\n", f);
	for (unsigned i = 0; i < sm_sformat_count(); i++) {
		struct sm_sformat sf;

		sm_sformat_at(i, &sf);
		fprintf(f, "%-22s %-26s", sf.name, sf.codec);
		for (unsigned k = 0; k < 8; k++) {
			double rate = sm_sformat_rate(&sf, sm_fps_find(show[k]));

			if (rate > 0)
				fprintf(f, " %8.2f", rate / 1048576.0);
			else
				fprintf(f, " %8s", "-");   /* no published rate at this fps */
		}
		fputc('\n', f);
	}
	/* the frame-sequence formats of frames --list-formats: a stream is a
	 * directory of one file per frame, at any rate; the frame file's
	 * column as wide as its longest entry */
	int wide = 0;

	for (unsigned i = 0; i < sm_format_count(); i++) {
		struct sm_format fmt;
		char what[96];
		int len;

		sm_format_at(i, &fmt);
		len = snprintf(what, sizeof(what), "%s, %llu B", fmt.family->desc,
			       (unsigned long long)fmt.frame_bytes);
		if (len > wide)
			wide = len;
	}
	fprintf(f, "\n%-22s %-*s", "sequence format", wide, "frame file");
	for (unsigned k = 0; k < 8; k++)
		fprintf(f, " %8s", show[k]);
	fputs("   (MiB/s per stream; one file per frame)\n", f);
	for (unsigned i = 0; i < sm_format_count(); i++) {
		struct sm_format fmt;
		struct sm_sformat sf;
		char what[96];

		sm_format_at(i, &fmt);
		sm_sformat_sequence(&fmt, &sf);
		snprintf(what, sizeof(what), "%s, %llu B", sf.codec, (unsigned long long)sf.bytes_per_frame);
		fprintf(f, "%-22s %-*s", sf.name, wide, what);
		for (unsigned k = 0; k < 8; k++)
			fprintf(f, " %8.2f", sm_sformat_rate(&sf, sm_fps_find(show[k])) / 1048576.0);
		fputc('\n', f);
	}
}
