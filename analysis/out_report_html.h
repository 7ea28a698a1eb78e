/* out_report_html.h — report.html from report.md: one file, figures inlined as data URIs. */
#ifndef PMUCHECK_OUT_REPORT_HTML_H
#define PMUCHECK_OUT_REPORT_HTML_H

#include <stdio.h>

#include "err.h"

/* Converts the Markdown in md (the subset report.md uses: headings, paragraphs, lists, pipe tables,
   images, `code`, *emphasis*, **strong**, links) to HTML on out. Image paths are relative to dir;
   each image is embedded as base64. */
int out_report_html(FILE *out, FILE *md, const char *dir, const char *title, struct err *e);

#endif
