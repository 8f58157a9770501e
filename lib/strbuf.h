/*
 * strbuf.h - a growable, always NUL-terminated string (after git's strbuf).
 *
 *   struct strbuf { char *buf; size_t len; size_t alloc; }
 *
 * buf[len] is always '\0'; alloc counts the bytes allocated (0 while buf
 * points at a shared empty string, so an initialized strbuf costs nothing).
 * Use it instead of snprintf juggling: sb_addf appends formatted text.
 */
#ifndef SF_STRBUF_H
#define SF_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

extern char sb_empty_[1];
#define STRBUF_INIT { sb_empty_, 0, 0 }

void sb_init(struct strbuf *sb);
void sb_release(struct strbuf *sb);
void sb_grow(struct strbuf *sb, size_t extra);
void sb_adds(struct strbuf *sb, const char *s);

/* Appending is inline while there is room (a report appends a few bytes
 * at a time, a dozen times a member line): only growing is a call. */
static inline void sb_add(struct strbuf *sb, const void *data, size_t n)
{
	if (sb->alloc - sb->len <= n)	/* room for n and the NUL? (none: alloc 0) */
		sb_grow(sb, n);
	memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

static inline void sb_addch(struct strbuf *sb, int c)
{
	if (sb->alloc - sb->len < 2)
		sb_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}
void sb_addchars(struct strbuf *sb, int c, size_t n);
/* What printf's "%-*s" of (width, s) appends: s, then blanks up to
 * |width| bytes in all (a negative width left-justifies as well) */
void sb_addpad(struct strbuf *sb, const char *s, int width);
/* What printf's "%*" PRIu64 of (width, v) appends: v in decimal,
 * blanks in front up to width bytes (width >= 0) */
void sb_addu64(struct strbuf *sb, uint64_t v, int width);
void sb_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* s with every byte that is not part of well-formed UTF-8 made '?' */
void sb_add_utf8(struct strbuf *sb, const char *s);
/* JSON string literal, quotes included, always valid UTF-8 */
void sb_add_json_str(struct strbuf *sb, const char *s);
/* XML/HTML text, escaped */
void sb_add_xml(struct strbuf *sb, const char *s);
void sb_reset(struct strbuf *sb);
void sb_setlen(struct strbuf *sb, size_t len);
/* hand the buffer to the caller (free() it); sb is reset */
char *sb_detach(struct strbuf *sb);

#endif
