/* out_report_html.c — a small Markdown-to-HTML converter for report.md's own subset, so report.html
 * is one self-contained file a browser opens anywhere (no external src: images are data URIs). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out_report_html.h"

static void esc(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		switch (s[i]) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(s[i], f);
		}
	}
}

/* In a table cell, a break opportunity after the separators of event names (ANY_DATA_CACHE_FILLS.LCL_L2,
   cpu/event=0x44,umask=0x5f/): the longest words of a report wrap there instead of pushing the table
   past the page. Not inside numbers ("1.000"): a '.' or ',' breaks only before a letter. */
static int break_after(const char *s, size_t i, size_t n)
{
	if (i + 1 >= n || !isalnum((unsigned char)s[i + 1]))
		return 0;
	return s[i] == '_' || s[i] == '/' || s[i] == '=' ||
		((s[i] == '.' || s[i] == ',' || s[i] == ':') && isalpha((unsigned char)s[i + 1]));
}

/* *em* as report.md writes it: the opening '*' at the start or after a space or '(', before a word; the
   closing one after a word, before the end, a space or punctuation. Any other '*' is literal: the '*' of
   a box wildcard or a pattern in an event name or a reason ("PMU name 'amd_umc_*' is not [a-z]*") would
   otherwise open an emphasis that swallows the text up to the next star, and the stars with it. */
static int em_opens(const char *s, size_t i, size_t n)
{
	return (i == 0 || s[i - 1] == ' ' || s[i - 1] == '(') && i + 1 < n &&
		isalnum((unsigned char)s[i + 1]);
}

static const char *em_close(const char *s, size_t i, size_t n)
{
	for (size_t j = i + 2; j < n; j++)
		if (s[j] == '*' && s[j - 1] != ' ' && s[j - 1] != '*' &&
		    (j + 1 == n || !(isalnum((unsigned char)s[j + 1]) || s[j + 1] == '_' || s[j + 1] == '*')))
			return s + j;
	return NULL;
}

/* Inline markup: `code`, **strong**, *em*, [text](href). Unclosed markers are literal. cell: in a table. */
static void inline_md(FILE *f, const char *s, size_t n, int cell)
{
	size_t i = 0;

	while (i < n) {
		const char *close;
		if (s[i] == '`' && (close = memchr(s + i + 1, '`', n - i - 1))) {
			fputs("<code>", f);
			esc(f, s + i + 1, (size_t)(close - s - i - 1));
			fputs("</code>", f);
			i = (size_t)(close - s) + 1;
		} else if (!strncmp(s + i, "**", 2) && i + 2 < n && (close = strstr(s + i + 2, "**")) &&
			   close < s + n) {
			fputs("<strong>", f);
			inline_md(f, s + i + 2, (size_t)(close - s - i - 2), cell);
			fputs("</strong>", f);
			i = (size_t)(close - s) + 2;
		} else if (s[i] == '*' && em_opens(s, i, n) && (close = em_close(s, i, n))) {
			fputs("<em>", f);
			inline_md(f, s + i + 1, (size_t)(close - s - i - 1), cell);
			fputs("</em>", f);
			i = (size_t)(close - s) + 1;
		} else if (s[i] == '[' && (close = memchr(s + i, ']', n - i)) && close + 1 < s + n &&
			   close[1] == '(' && memchr(close, ')', (size_t)(s + n - close))) {
			const char *href = close + 2, *end = memchr(close, ')', (size_t)(s + n - close));
			fputs("<a href=\"", f);
			esc(f, href, (size_t)(end - href));
			fputs("\">", f);
			inline_md(f, s + i + 1, (size_t)(close - s - i - 1), cell);
			fputs("</a>", f);
			i = (size_t)(end - s) + 1;
		} else {
			esc(f, s + i, 1);
			if (cell && break_after(s, i, n))
				fputs("<wbr>", f);
			i++;
		}
	}
}

static int base64_file(FILE *out, const char *path, struct err *e)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned char in[3];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return err_set(e, E_RUNTIME, "%s: %s", path, strerror(errno));
	while ((n = fread(in, 1, 3, f)) > 0) {
		unsigned v = (unsigned)in[0] << 16 | (n > 1 ? (unsigned)in[1] << 8 : 0) | (n > 2 ? in[2] : 0);
		fputc(tab[v >> 18 & 63], out);
		fputc(tab[v >> 12 & 63], out);
		fputc(n > 1 ? tab[v >> 6 & 63] : '=', out);
		fputc(n > 2 ? tab[v & 63] : '=', out);
	}
	fclose(f);
	return 0;
}

/* "![alt](path)" on a line of its own. */
static int image(FILE *f, const char *line, const char *dir, struct err *e)
{
	const char *mid = strstr(line, "]("), *end = strrchr(line, ')');
	char path[PATH_MAX];

	snprintf(path, sizeof path, "%s/%.*s", dir, (int)(end - mid - 2), mid + 2);
	fputs("<figure><img alt=\"", f);
	esc(f, line + 2, (size_t)(mid - line - 2));
	fputs("\" src=\"data:image/png;base64,", f);
	if (base64_file(f, path, e))
		return E_RUNTIME;
	fputs("\"></figure>\n", f);
	return 0;
}

static int is_image(const char *l)
{
	return !strncmp(l, "![", 2) && strstr(l, "](") && l[strlen(l) - 1] == ')';
}

static void table_row(FILE *f, const char *line, const char *cell)
{
	const char *p = line + 1, *bar;

	fputs("<tr>", f);
	while ((bar = strchr(p, '|'))) {
		const char *a = p, *b = bar;
		while (a < b && *a == ' ')
			a++;
		while (b > a && b[-1] == ' ')
			b--;
		fprintf(f, "<%s>", cell);
		inline_md(f, a, (size_t)(b - a), 1);
		fprintf(f, "</%s>", cell);
		p = bar + 1;
	}
	fputs("</tr>\n", f);
}

enum block { B_NONE, B_PARA, B_LIST, B_TABLE };

static void close_block(FILE *f, enum block *b)
{
	static const char *const end[] = {"", "</p>\n", "</ul>\n", "</table>\n"};

	fputs(end[*b], f);
	*b = B_NONE;
}

static const char style[] =
	"body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;line-height:1.4}"
	"table{border-collapse:collapse;font-size:90%;margin:1em 0;max-width:100%}"
	"th,td{border:1px solid #bbb;padding:2px 6px;text-align:left;vertical-align:top}th{background:#eee}"
	"td{overflow-wrap:break-word}"
	"img{max-width:100%}code{background:#f4f4f4}";

int out_report_html(FILE *out, FILE *md, const char *dir, const char *title, struct err *e)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	enum block b = B_NONE;
	int header_row = 0, rc = 0;

	fprintf(out, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>");
	esc(out, title, strlen(title));
	fprintf(out, "</title><style>%s</style></head><body>\n", style);
	while (!rc && (len = getline(&line, &cap, md)) >= 0) {
		int h = 0;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		while (line[h] == '#')
			h++;
		if (!len) {
			close_block(out, &b);
		} else if (h && line[h] == ' ' && h <= 6) {
			close_block(out, &b);
			fprintf(out, "<h%d>", h);
			inline_md(out, line + h + 1, (size_t)len - h - 1, 0);
			fprintf(out, "</h%d>\n", h);
		} else if (is_image(line)) {
			close_block(out, &b);
			rc = image(out, line, dir, e);
		} else if (line[0] == '|') {
			if (b != B_TABLE) {
				close_block(out, &b);
				fputs("<table>\n", out);
				b = B_TABLE;
				header_row = 1;
			}
			if (strspn(line, "|-: ") == (size_t)len)
				continue; /* the separator under the header */
			table_row(out, line, header_row ? "th" : "td");
			header_row = 0;
		} else if (!strncmp(line, "- ", 2)) {
			if (b != B_LIST) {
				close_block(out, &b);
				fputs("<ul>\n", out);
				b = B_LIST;
			}
			fputs("<li>", out);
			inline_md(out, line + 2, (size_t)len - 2, 0);
			fputs("</li>\n", out);
		} else {
			if (b != B_PARA) {
				close_block(out, &b);
				fputs("<p>", out);
				b = B_PARA;
			} else {
				fputc('\n', out);
			}
			inline_md(out, line, (size_t)len, 0);
		}
	}
	close_block(out, &b);
	fputs("</body></html>\n", out);
	free(line);
	return rc;
}
