/* SPDX-License-Identifier: MIT */
/* The catalogues of formats a command can be given: frames' sizes and
 * video formats (--list-formats), streams' formats and their published
 * rates (--list: compressed, then frame sequences). */
#include "report/formats.h"

#include "core/formats.h"
#include "core/sformats.h"

#include <stdint.h>
#include <string.h>

void sm_report_video_formats(FILE *out)
{
	struct sm_format f;

	fprintf(out, "frametest size presets (-w NAME):\n");
	for (unsigned i = 0; i < sm_nft_presets; i++)
		fprintf(out, "  %-8s %5ux%-5u %8llu KiB%s\n", sm_ft_presets[i].name, sm_ft_presets[i].width,
			sm_ft_presets[i].height, (unsigned long long)sm_ft_presets[i].kib,
			sm_ft_presets[i].original ? "  (frametest's own)" : "");
	/* the families' descriptions under the table, so that each row fits
	 * 80 columns */
	fprintf(out, "\nvideo formats (--video-format NAME):\n");
	for (unsigned i = 0; sm_format_at(i, &f) == 0; i++)
		fprintf(out, "  %-22s %5ux%-5u %12llu bytes/frame\n", f.name, f.width, f.height,
			(unsigned long long)f.frame_bytes);
	fprintf(out, "\nfamilies (NAME is FAMILY-GEOMETRY):\n");
	for (unsigned i = 0; i < sm_nfamilies; i++)
		fprintf(out, "  %-14s %s\n", sm_families[i].name, sm_families[i].desc);
}

/* The frame rates every layout of streams --list shows. */
static const char *const show[] = { "23.976", "24", "25", "29.97", "30", "50", "59.94", "60" };
#define NSHOW (sizeof(show) / sizeof(show[0]))

static int catalogue_at(unsigned i, struct sm_sformat *sf, uint64_t *frame);

/* A rate in MiB/s in 6 columns: two decimals under 1000, one under
 * 10000, none above. */
static void rate_cell(FILE *f, double bytes_s)
{
	double mib = bytes_s / 1048576.0;

	if (bytes_s <= 0)
		fprintf(f, " %6s", "-");   /* no published rate at this fps */
	else
		fprintf(f, " %6.*f", mib < 999.995 ? 2 : mib < 9999.95 ? 1 : 0, mib);
}

/* The family of a format: its name less the size ("prores-hq" of
 * "prores-hq-uhd"), the key of the codec legend. */
static void family(const struct sm_sformat *sf, char *out, size_t len)
{
	size_t n = strlen(sf->name), g = sf->geometry ? strlen(sf->geometry) : 0;

	if (g && n > g + 1 && sf->name[n - g - 1] == '-' && !strcmp(sf->name + n - g, sf->geometry))
		n -= g + 1;
	snprintf(out, len, "%.*s", (int)n, sf->name);
}

/* One table of the text layout: the header, a row per format of
 * [first, last) of the catalogue, then the legend of its families'
 * codecs, wrapped to 79 columns. Each row is 21 + 8 x 7 = 77 columns. */
static void text_table(FILE *f, const char *title, unsigned first, unsigned last, const char *note)
{
	struct sm_sformat sf;
	char fam[48], seen[64][48];
	unsigned nseen = 0, col;

	fprintf(f, "%-21s", title);
	for (unsigned k = 0; k < NSHOW; k++)
		fprintf(f, " %6s", show[k]);
	fputc('\n', f);
	for (unsigned i = first; i < last; i++) {
		uint64_t frame;

		if (catalogue_at(i, &sf, &frame))
			break;
		fprintf(f, "%-21s", sf.name);
		for (unsigned k = 0; k < NSHOW; k++)
			rate_cell(f, sm_sformat_rate(&sf, sm_fps_find(show[k])));
		fputc('\n', f);
	}
	fprintf(f, "%s\n", note);
	/* the codecs, a family each: "prores-hq: Apple ProRes 422 HQ; ..." */
	col = (unsigned)fprintf(f, "codecs:");
	for (unsigned i = first; i < last; i++) {
		uint64_t frame;
		char item[128];
		unsigned j, w;

		if (catalogue_at(i, &sf, &frame))
			break;
		family(&sf, fam, sizeof(fam));
		for (j = 0; j < nseen && strcmp(seen[j], fam); j++)
			;
		if (j < nseen)
			continue;
		if (nseen < 64)
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", fam);
		w = (unsigned)snprintf(item, sizeof(item), "%s %s = %s", nseen > 1 ? ";" : "", fam, sf.codec);
		if (col + w > 79) {
			fputs(nseen > 1 ? ";\n " : "\n ", f);
			col = 1 + (unsigned)fprintf(f, "%s", item + (nseen > 1 ? 1 : 0));
		} else {
			col += (unsigned)fprintf(f, "%s", item);
		}
	}
	fputc('\n', f);
}

void sm_report_stream_formats(FILE *f)
{
	unsigned nc = sm_sformat_count();

	text_table(f, "format", 0, nc, "(MiB/s per stream at each fps; -: none published)");
	fputc('\n', f);
	text_table(f, "sequence format", nc, nc + sm_format_count(),
		   "(MiB/s per stream, one file per frame; bytes per frame: --format csv or json)");
}

/* Format i of the whole catalogue (compressed first, then the sequences)
 * into *sf, its bytes per frame into *frame (0: compressed). Returns 0, or
 * -ERANGE past the end. */
static int catalogue_at(unsigned i, struct sm_sformat *sf, uint64_t *frame)
{
	struct sm_format fmt;

	if (i < sm_sformat_count()) {
		*frame = 0;
		return sm_sformat_at(i, sf);
	}
	if (sm_format_at(i - sm_sformat_count(), &fmt))
		return -1;
	sm_sformat_sequence(&fmt, sf);
	*frame = sf->bytes_per_frame;
	return 0;
}

void sm_report_stream_formats_table(FILE *f, enum sm_table_style style)
{
	static const char *const md_rate[NSHOW] = { "23.976", "24", "25", "29.97", "30", "50", "59.94", "60" };
	static const char *const csv_rate[NSHOW] = {
		"23.976 fps (bytes/s)", "24 fps (bytes/s)", "25 fps (bytes/s)", "29.97 fps (bytes/s)",
		"30 fps (bytes/s)", "50 fps (bytes/s)", "59.94 fps (bytes/s)", "60 fps (bytes/s)",
	};
	struct sm_table_col cols[4 + NSHOW] = {
		{ "kind", 0, 1, "" }, { "format", 0, 1, "" }, { "codec", 0, 1, "" },
		{ style == SM_TABLE_CSV ? "bytes per frame" : "frame bytes", 0, 0, "" },
	};
	struct sm_table t = { f, style, cols, 4 + NSHOW };
	struct sm_sformat sf;
	uint64_t frame;
	char cell[NSHOW + 1][32];
	const char *row[4 + NSHOW];

	for (unsigned k = 0; k < NSHOW; k++)
		cols[4 + k] = (struct sm_table_col){ style == SM_TABLE_CSV ? csv_rate[k] : md_rate[k], 0, 0, "" };
	sm_table_title(&t, "stream formats: rate per stream at each frame rate");
	sm_table_head(&t);
	for (unsigned i = 0; catalogue_at(i, &sf, &frame) == 0; i++) {
		row[0] = frame ? "sequence" : "compressed";
		row[1] = sf.name;
		row[2] = sf.codec;
		snprintf(cell[NSHOW], sizeof(cell[NSHOW]), "%llu", (unsigned long long)frame);
		row[3] = frame ? cell[NSHOW] : "";
		for (unsigned k = 0; k < NSHOW; k++) {
			double rate = sm_sformat_rate(&sf, sm_fps_find(show[k]));

			if (rate <= 0)
				snprintf(cell[k], sizeof(cell[k]), "%s", style == SM_TABLE_CSV ? "" : "-");
			else if (style == SM_TABLE_CSV)
				snprintf(cell[k], sizeof(cell[k]), "%.0f", rate);
			else
				snprintf(cell[k], sizeof(cell[k]), "%.2f", rate / 1048576.0);
			row[4 + k] = cell[k];
		}
		sm_table_row(&t, row);
	}
	sm_table_note(&t, "MiB/s per stream; -: no rate published at that frame rate; a sequence "
		      "format is one file per frame, at any rate");
}

cJSON *sm_report_stream_formats_json(void)
{
	cJSON *doc = cJSON_CreateObject(), *all = cJSON_AddArrayToObject(doc, "formats");
	struct sm_sformat sf;
	uint64_t frame;

	if (!doc || !all)
		goto fail;
	for (unsigned i = 0; catalogue_at(i, &sf, &frame) == 0; i++) {
		cJSON *o = cJSON_CreateObject(), *rates;

		if (!o || !cJSON_AddItemToArray(all, o) || !cJSON_AddStringToObject(o, "name", sf.name) ||
		    !cJSON_AddStringToObject(o, "kind", frame ? "sequence" : "compressed") ||
		    !cJSON_AddStringToObject(o, "codec", sf.codec) ||
		    !(frame ? cJSON_AddNumberToObject(o, "bytes_per_frame", (double)frame)
			    : cJSON_AddNullToObject(o, "bytes_per_frame")) ||
		    !(rates = cJSON_AddArrayToObject(o, "rates")))
			goto fail;
		for (unsigned k = 0; k < NSHOW; k++) {
			double rate = sm_sformat_rate(&sf, sm_fps_find(show[k]));
			cJSON *r;

			if (rate <= 0)
				continue;   /* none published at this rate */
			r = cJSON_CreateObject();
			if (!r || !cJSON_AddItemToArray(rates, r) || !cJSON_AddStringToObject(r, "fps", show[k]) ||
			    !cJSON_AddNumberToObject(r, "bytes_per_s", rate))
				goto fail;
		}
	}
	return doc;
fail:
	cJSON_Delete(doc);
	return NULL;
}
