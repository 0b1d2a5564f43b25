/* SPDX-License-Identifier: MIT */
/* The page and the head sections of the HTML reports (html_page.h); the
 * charts are html_chart.c. No script, no external file: a report opens
 * offline in any browser. */
#include "report/html_page.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "core/units.h"

/*
 * The page's style. Text wraps (long paths and command lines break
 * anywhere, the run's summary is pre-wrap), a table wider than the window
 * scrolls in its own box, never the page. Chart text: a chart is
 * min(1000, window - 15 (scroll bar) - 2 x padding) px wide for 960 units,
 * so 11 units >= 10 px from a window of 928 px, 14 from 741, 17 from 600
 * and 21 (FS_MAX) from 488; below that the chart keeps 457 px (21 units at
 * 10 px) and scrolls in its figure.
 */
static const char style[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:0;background:#fff;color:#1b1f24}"
	"main{max-width:1000px;margin:0 auto;padding:12px 20px 40px}"
	"h1{font-size:22px;margin:8px 0}h2{font-size:18px;margin:22px 0 8px;"
	"border-bottom:1px solid #d0d7de}h1,h2,h3,p,li,figcaption,table.kv td+td{overflow-wrap:anywhere}"
	"table{border-collapse:collapse;margin:6px 0;display:block;max-width:100%;overflow-x:auto}"
	"td,th{border:1px solid #d0d7de;"
	"padding:3px 8px;text-align:right;vertical-align:top}th{background:#f3f5f7}"
	"td:first-child,th:first-child{text-align:left}table.kv td{text-align:left}"
	"code{font:13px ui-monospace,monospace;background:#f3f5f7;padding:1px 4px;"
	"word-break:break-all}pre{white-space:pre-wrap;overflow-wrap:anywhere;font:13px/1.4 "
	"ui-monospace,monospace}"
	".warn{background:#fff4e5;border-left:4px solid #e8590c;padding:6px 10px}"
	".err{background:#ffe3e3;border-left:4px solid #c92a2a;padding:6px 10px}"
	".muted{color:#57606a}figure{margin:10px 0;overflow-x:auto}figcaption{font-weight:600}"
	".key{font-size:13px;margin:2px 0 0}"
	"svg{width:100%;height:auto;display:block;min-width:457px}svg text{font:11px system-ui,sans-serif;"
	"fill:#333}"
	"@media (max-width:927px){svg text{font-size:14px}}"
	"@media (max-width:740px){svg text{font-size:17px}}"
	"@media (max-width:719px){main{padding:8px 8px 30px}}"
	"@media (max-width:599px){svg text{font-size:21px}}"
	"td.v-yes{background:#b2f2bb}td.v-marginal{background:#ffec99}td.v-no{background:#ffc9c9}";

void sm_html_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
}

static void vtext(FILE *f, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static void vtext(FILE *f, const char *fmt, va_list ap)
{
	char buf[2048];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	sm_html_text(f, buf);
}

void sm_html_printf(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vtext(f, fmt, ap);
	va_end(ap);
}

void sm_html_section(FILE *f, const char *id, const char *title)
{
	fprintf(f, "<section id=\"%s\"><h2>", id);
	sm_html_text(f, title);
	fputs("</h2>\n", f);
}

void sm_html_section_end(FILE *f)
{
	fputs("</section>\n", f);
}

void sm_html_kv_begin(FILE *f, const char *cls)
{
	fprintf(f, "<table class=\"kv%s%s\">\n", cls ? " " : "", cls ? cls : "");
}

void sm_html_kv(FILE *f, const char *key, const char *fmt, ...)
{
	va_list ap;

	fputs("<tr><td>", f);
	sm_html_text(f, key);
	fputs("</td><td>", f);
	va_start(ap, fmt);
	vtext(f, fmt, ap);
	va_end(ap);
	fputs("</td></tr>\n", f);
}

void sm_html_kv_end(FILE *f)
{
	fputs("</table>\n", f);
}

void sm_html_note(FILE *f, const char *cls, const char *fmt, ...)
{
	va_list ap;

	if (cls)
		fprintf(f, "<p class=\"%s\">", cls);
	else
		fputs("<p>", f);
	va_start(ap, fmt);
	vtext(f, fmt, ap);
	va_end(ap);
	fputs("</p>\n", f);
}

/* One argument as a shell would need it: bare when it is safe, else in
 * single quotes. */
static void shell_arg(FILE *f, const char *a)
{
	int bare = *a != '\0';

	for (const char *p = a; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+%@", *p))
			bare = 0;
	if (bare) {
		sm_html_text(f, a);
		return;
	}
	fputc('\'', f);
	for (const char *p = a; *p; p++) {
		if (*p == '\'')
			fputs("&#39;\\&#39;&#39;", f);
		else {
			char c[2] = { *p, 0 };

			sm_html_text(f, c);
		}
	}
	fputc('\'', f);
}

static void head_sections(FILE *f, const struct sm_result_head *h)
{
	const struct sm_env *e = &h->env;
	char a[32], b[32];

	if (h->warnings.count || h->error[0] || h->interrupted) {
		sm_html_section(f, "warnings", "Warnings");
		if (h->error[0])
			sm_html_note(f, "err", "error: %s", h->error);
		if (h->interrupted)
			sm_html_note(f, "err", "interrupted by a signal: the figures are partial");
		for (unsigned i = 0; i < h->warnings.count; i++)
			sm_html_note(f, "warn", "%s: %s", h->warnings.item[i].code,
				     h->warnings.item[i].message);
		sm_html_section_end(f);
	}
	sm_html_section(f, "run", "Run");
	sm_html_kv_begin(f, NULL);
	fputs("<tr><td>command</td><td><code id=\"command-line\">", f);
	if (h->argc > 0) {
		/* argv[0] is the subcommand, or the compatibility name as run */
		const char *base = strrchr(h->argv[0], '/');

		base = base ? base + 1 : h->argv[0];
		if (strcmp(base, "frametest") && strcmp(base, "sysbench"))
			fputs("stormark ", f);
	}
	for (int i = 0; i < h->argc; i++) {
		if (i)
			fputc(' ', f);
		shell_arg(f, h->argv[i]);
	}
	fputs("</code></td></tr>\n", f);
	sm_html_kv(f, "tool", "stormark %s", h->version);
	sm_html_kv(f, "started", "%s", h->started_at);
	sm_html_kv(f, "duration", "%.3f s", (double)h->duration_ns / 1e9);
	sm_html_kv_end(f);
	sm_html_section_end(f);
	sm_html_section(f, "environment", "Environment");
	sm_html_kv_begin(f, NULL);
	sm_html_kv(f, "kernel", "%s", e->kernel[0] ? e->kernel : "?");
	sm_html_kv(f, "file system", "%s on %s, mounted on %s", e->fs.fs_type[0] ? e->fs.fs_type : "?",
		   e->fs.device[0] ? e->fs.device : "?", e->fs.mount_point[0] ? e->fs.mount_point : "?");
	if (sm_mount_is_share(&e->fs.mount)) {
		char line[512];

		sm_mount_describe(&e->fs.mount, line, sizeof(line));
		sm_html_kv(f, "share", "%s", line);
	}
	if (e->fs.total_bytes)
		sm_html_kv(f, "space", "%s free of %s", sm_fmt_bytes(a, sizeof(a), (double)e->fs.free_bytes),
			   sm_fmt_bytes(b, sizeof(b), (double)e->fs.total_bytes));
	sm_html_kv(f, "I/O", "%s%s%s", e->direct_io ? "direct (O_DIRECT)" : "buffered (page cache)",
		   e->engine[0] ? ", engine " : "", e->engine);
	if (e->mem_total_bytes)
		sm_html_kv(f, "memory", "%s, %s available",
			   sm_fmt_bytes(a, sizeof(a), (double)e->mem_total_bytes),
			   sm_fmt_bytes(b, sizeof(b), (double)e->mem_available_bytes));
	sm_html_kv(f, "CPUs", "%u", e->cpus);
	if (e->arch[0] || e->cpu_model[0])   /* absent in a result saved before */
		sm_html_kv(f, "CPU", "%s%s%s", e->arch, e->arch[0] && e->cpu_model[0] ? ", " : "",
			   e->cpu_model);
	sm_html_kv_end(f);
	sm_html_section_end(f);
}

void sm_html_begin(FILE *f, const struct sm_result_head *h, const char *subject)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"stormark ", f);
	sm_html_text(f, h->version);
	fputs("\">\n<title>", f);
	sm_html_printf(f, "stormark %s: %s", h->command, subject);
	fprintf(f, "</title>\n<style>%s</style></head>\n<body><main>\n<h1>", style);
	sm_html_printf(f, "stormark %s: %s", h->command, subject);
	fputs("</h1>\n", f);
	head_sections(f, h);
}

void sm_html_begin_plain(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"stormark " SM_VERSION "\">\n<title>", f);
	sm_html_printf(f, "stormark %s", title);
	fprintf(f, "</title>\n<style>%s</style></head>\n<body><main>\n<h1>", style);
	sm_html_printf(f, "stormark %s", title);
	fputs("</h1>\n", f);
}

void sm_html_end(FILE *f)
{
	fputs("<p class=\"muted\">Written by stormark; charts are summarised per pixel "
	      "column (min-max band and mean). See docs/report.md.</p>\n</main></body></html>\n", f);
}
