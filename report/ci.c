/*
 * ci.c - escaping and frames shared by the CI formats, and the error
 * documents (see ci.h).  Only appends to strbufs.
 */
#include "ci.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"

void sf_ci_sarif_uri(struct strbuf *out, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	struct strbuf u = STRBUF_INIT;

	if (path[0] == '/')
		sb_adds(&u, "file://");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p)) {
			sb_addch(&u, *p);
		} else {
			sb_addch(&u, '%');
			sb_addch(&u, hex[*p >> 4]);
			sb_addch(&u, hex[*p & 15]);
		}
	}
	sb_add_json_str(out, u.buf);
	sb_release(&u);
}

void sf_ci_xml_text(struct strbuf *out, const char *s)
{
	struct strbuf clean = STRBUF_INIT;

	sb_add_utf8(&clean, s);
	for (size_t i = 0; i < clean.len; i++) {
		unsigned char c = (unsigned char)clean.buf[i];
		/* control bytes other than tab, newline, return are not XML */
		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
			clean.buf[i] = '?';
	}
	sb_add_xml(out, clean.buf);
	sb_release(&clean);
}

void sf_ci_gh_escape(struct strbuf *out, const char *s, bool property)
{
	for (; *s; s++) {
		switch (*s) {
		case '%': sb_adds(out, "%25"); break;
		case '\r': sb_adds(out, "%0D"); break;
		case '\n': sb_adds(out, "%0A"); break;
		case ':': property ? sb_adds(out, "%3A") : sb_addch(out, ':'); break;
		case ',': property ? sb_adds(out, "%2C") : sb_addch(out, ','); break;
		default: sb_addch(out, *s);
		}
	}
}

void sf_ci_md_cell(struct strbuf *out, const char *s)
{
	struct strbuf clean = STRBUF_INIT;

	sb_add_utf8(&clean, s);
	for (const char *p = clean.buf; *p; p++) {
		if (*p == '|')
			sb_adds(out, "\\|");
		else if (*p == '\n' || *p == '\r')
			sb_addch(out, ' ');
		else if (*p == '<')
			sb_adds(out, "&lt;");   /* a PR comment is HTML-ish */
		else
			sb_addch(out, *p);
	}
	sb_release(&clean);
}

void sf_ci_md_code(struct strbuf *out, const char *s)
{
	struct strbuf clean = STRBUF_INIT;

	sb_add_utf8(&clean, s);
	/* a backtick inside needs a longer fence, padded with spaces */
	bool tick = strchr(clean.buf, '`') != NULL;
	sb_adds(out, tick ? "`` " : "`");
	for (const char *p = clean.buf; *p; p++) {
		if (*p == '|')
			sb_adds(out, "\\|");   /* GFM: even inside code, in a table */
		else if (*p == '\n' || *p == '\r')
			sb_addch(out, ' ');
		else
			sb_addch(out, *p);
	}
	sb_adds(out, tick ? " ``" : "`");
	sb_release(&clean);
}

void sf_ci_sarif_open(struct strbuf *out, const char *tool_version)
{
	sb_adds(out, "{\"$schema\":\"" SARIF_SCHEMA "\",\"version\":\"2.1.0\","
		"\"runs\":[{\"tool\":{\"driver\":{\"name\":\"structfit\"");
	if (tool_version) {
		sb_adds(out, ",\"version\":");
		sb_add_json_str(out, tool_version);
	}
}

void sf_ci_sarif_base(struct strbuf *out, const char *path, const char *root)
{
	if (root && path[0] != '/')
		sb_adds(out, ",\"uriBaseId\":\"SRCROOT\"");
}

void sf_ci_sarif_run_frame(struct strbuf *out, const char *root)
{
	if (root) {
		struct strbuf dir = STRBUF_INIT;
		sb_adds(&dir, root);
		/* a base URI names a directory: it ends in '/' */
		if (!dir.len || dir.buf[dir.len - 1] != '/')
			sb_addch(&dir, '/');
		sb_adds(out, ",\"originalUriBaseIds\":{\"SRCROOT\":{\"uri\":");
		sf_ci_sarif_uri(out, dir.buf);
		sb_adds(out, "}}");
		sb_release(&dir);
	}
	sb_adds(out, ",\"invocations\":[{\"executionSuccessful\":true}]");
}

/* ------------------------------------------------------------ errors */

void sf_render_ci_error_json(struct strbuf *out, const struct sf_ci_error *e)
{
	sb_adds(out, "{\"schema\":\"structfit/1\",\"command\":");
	sb_add_json_str(out, e->command ? e->command : "");
	sb_adds(out, ",\"error\":{\"file\":");
	if (e->file)
		sb_add_json_str(out, e->file);
	else
		sb_adds(out, "null");
	if (e->line)
		sb_addf(out, ",\"line\":%u", e->line);
	if (e->col)
		sb_addf(out, ",\"column\":%u", e->col);
	sb_adds(out, ",\"message\":");
	sb_add_json_str(out, e->problem);
	sb_adds(out, "}}\n");
}

void sf_render_ci_error_sarif(struct strbuf *out, const struct sf_ci_error *e)
{
	sf_ci_sarif_open(out, e->tool_version);
	sb_adds(out, "}},\"invocations\":[{\"executionSuccessful\":false,"
		"\"exitCode\":2,\"toolExecutionNotifications\":[{\"level\":\"error\","
		"\"message\":{\"text\":");
	sb_add_json_str(out, e->text);
	sb_addch(out, '}');
	if (e->file) {
		sb_adds(out, ",\"locations\":[{\"physicalLocation\":{\"artifactLocation\":"
			"{\"uri\":");
		sf_ci_sarif_uri(out, e->file);
		sb_addch(out, '}');
		if (e->line) {
			sb_addf(out, ",\"region\":{\"startLine\":%u", e->line);
			if (e->col)
				sb_addf(out, ",\"startColumn\":%u", e->col);
			sb_addch(out, '}');
		}
		sb_adds(out, "}}]");
	}
	sb_adds(out, "}]}],\"results\":[]}]}\n");
}

void sf_render_ci_error_junit(struct strbuf *out, const struct sf_ci_error *e)
{
	sb_addf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"structfit %s\" tests=\"1\" failures=\"0\" "
		"errors=\"1\" skipped=\"0\" time=\"0\">\n"
		"  <testsuite name=\"", e->command);
	sf_ci_xml_text(out, e->file ? e->file : e->command);
	sb_adds(out, "\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" "
		"time=\"0\">\n    <testcase classname=\"structfit.");
	sf_ci_xml_text(out, e->command);
	sb_addf(out, "\" name=\"structfit %s\" time=\"0\">\n"
		"      <error type=\"input\" message=\"", e->command);
	sf_ci_xml_text(out, e->text);
	sb_adds(out, "\">");
	sf_ci_xml_text(out, e->text);
	sb_adds(out, "</error>\n    </testcase>\n  </testsuite>\n</testsuites>\n");
}

void sf_render_ci_error_github(struct strbuf *out, const struct sf_ci_error *e)
{
	sb_adds(out, "::error ");
	if (e->file) {
		sb_adds(out, "file=");
		sf_ci_gh_escape(out, e->file, true);
		if (e->line)
			sb_addf(out, ",line=%u", e->line);
		if (e->col)
			sb_addf(out, ",col=%u", e->col);
		sb_addch(out, ',');
	}
	sb_addf(out, "title=structfit %s::", e->command);
	sf_ci_gh_escape(out, e->text, false);
	sb_addch(out, '\n');
}

void sf_render_ci_error_markdown(struct strbuf *out, const struct sf_ci_error *e)
{
	sb_addf(out, "### structfit %s: error\n\n", e->command);
	sb_adds(out, "| file | problem |\n| --- | --- |\n| ");
	if (e->file) {
		struct strbuf where = STRBUF_INIT;
		sb_adds(&where, e->file);
		if (e->line)
			sb_addf(&where, ":%u", e->line);
		sf_ci_md_code(out, where.buf);
		sb_release(&where);
	}
	sb_adds(out, " | ");
	sf_ci_md_cell(out, e->problem);
	sb_adds(out, " |\n");
}
