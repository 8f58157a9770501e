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

void sb_adds(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_addchars(struct strbuf *sb, int c, size_t n)
{
	sb_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

/* The report's columns and numbers are written by these rather than by
 * sb_addf: vsnprintf's parsing of the format and padding one blank at a
 * time was 3 % of the instructions of a whole-vmlinux show. */
void sb_addpad(struct strbuf *sb, const char *s, int width)
{
	size_t n = strlen(s);
	size_t w = width < 0 ? (size_t)-(int64_t)width : (size_t)width;

	sb_add(sb, s, n);
	if (w > n)
		sb_addchars(sb, ' ', w - n);
}

void sb_addu64(struct strbuf *sb, uint64_t v, int width)
{
	char d[20];
	size_t i = sizeof(d);

	assert(width >= 0);
	do {
		d[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if ((size_t)width > sizeof(d) - i)
		sb_addchars(sb, ' ', (size_t)width - (sizeof(d) - i));
	sb_add(sb, d + i, sizeof(d) - i);
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

/*
 * Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlongs,
 * no surrogates, nothing above U+10FFFF), or 0.  Budget files and debug
 * info may hold any bytes; JSON and XML consumers accept only UTF-8.
 */
static size_t utf8_len(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

/* s with every byte that is not part of well-formed UTF-8 made '?'. */
void sb_add_utf8(struct strbuf *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n = utf8_len(p);
		if (n) {
			sb_add(out, p, n);
			p += n;
		} else {
			sb_addch(out, '?');
			p++;
		}
	}
}

void sb_add_json_str(struct strbuf *sb, const char *s)
{
	struct strbuf clean = STRBUF_INIT;

	/* Debug info may hold any bytes; JSON must be UTF-8. */
	sb_add_utf8(&clean, s);
	s = clean.buf;
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
	sb_release(&clean);
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
