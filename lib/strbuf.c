#include "strbuf.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

char sb_empty_[1];

void sb_init(struct strbuf *sb)
{
	sb->buf = sb_empty_;
	sb->len = 0;
	sb->alloc = 0;
}

void sb_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	sb_init(sb);
}

void sb_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need < sb->len)
		sf_xmalloc((size_t)-1); /* overflow: reported as out of memory */
	if (need <= sb->alloc)
		return;
	size_t na = sb->alloc ? sb->alloc : 64;
	while (na < need)
		na = na * 3 / 2 + 16;
	if (sb->alloc) {
		sb->buf = sf_xrealloc(sb->buf, na);
	} else {
		sb->buf = sf_xmalloc(na);
		sb->buf[0] = '\0';
	}
	sb->alloc = na;
}

void sb_add(struct strbuf *sb, const void *data, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_adds(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_addch(struct strbuf *sb, int c)
{
	sb_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void sb_addchars(struct strbuf *sb, int c, size_t n)
{
	sb_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;

	/* Format straight into the free space; only a long result is
	 * formatted twice (as git's strbuf_vaddf does). */
	sb_grow(sb, 64);
	va_copy(cp, ap);
	int n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	assert(n >= 0);
	if ((size_t)n >= sb->alloc - sb->len) {
		sb_grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	}
	sb->len += (size_t)n;
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

void sb_add_json_str(struct strbuf *sb, const char *s)
{
	sb_addch(sb, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': sb_adds(sb, "\\\""); break;
		case '\\': sb_adds(sb, "\\\\"); break;
		case '\n': sb_adds(sb, "\\n"); break;
		case '\t': sb_adds(sb, "\\t"); break;
		case '\r': sb_adds(sb, "\\r"); break;
		default:
			if (*p < 0x20)
				sb_addf(sb, "\\u%04x", *p);
			else
				sb_addch(sb, *p);
		}
	}
	sb_addch(sb, '"');
}

void sb_add_xml(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': sb_adds(sb, "&lt;"); break;
		case '>': sb_adds(sb, "&gt;"); break;
		case '&': sb_adds(sb, "&amp;"); break;
		case '"': sb_adds(sb, "&quot;"); break;
		case '\'': sb_adds(sb, "&#39;"); break;
		default: sb_addch(sb, *s);
		}
	}
}

void sb_reset(struct strbuf *sb)
{
	sb_setlen(sb, 0);
}

void sb_setlen(struct strbuf *sb, size_t len)
{
	assert(len <= sb->len);
	if (sb->alloc) {
		sb->len = len;
		sb->buf[len] = '\0';
	}
}

char *sb_detach(struct strbuf *sb)
{
	char *r = sb->alloc ? sb->buf : sf_xstrdup("");
	sb_init(sb);
	return r;
}
