/*
 * cursor.h - the bounds-checked byte cursor the DIE decoder reads with
 * (internal to dwarf/: die.c, dwfile.c, forms.c, lines.c, fingerprint.c).
 *
 * A `struct rd` is a position in one section's bytes: reads past `end`
 * return 0 and set the sticky `bad`, so decoding code reads straight
 * through and checks once.  Integers are read in the file's byte order
 * (msb), LEB128 up to 64 bits (longer encodings are read, their high bits
 * dropped).  Strings are returned only when NUL-terminated in bounds.
 */
#ifndef SF_CURSOR_H
#define SF_CURSOR_H

#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "die.h"

struct rd {
	const unsigned char *p;
	const unsigned char *end;
	int msb;
	int bad;
};

/* An n-byte little-endian integer the caller knows to be in bounds (the
 * host is little-endian: x86_64, as the byte swaps of rd_u assume). */
static inline uint64_t rd_le_unchecked(struct rd *r, unsigned n)
{
	uint64_t v = 0;

	switch (n) {
	case 1:
		v = r->p[0];
		break;
	case 2: {
		uint16_t x;
		memcpy(&x, r->p, 2);
		v = x;
		break;
	}
	case 4: {
		uint32_t x;
		memcpy(&x, r->p, 4);
		v = x;
		break;
	}
	case 8:
		memcpy(&v, r->p, 8);
		break;
	default:
		for (unsigned i = 0; i < n; i++)
			v |= (uint64_t)r->p[i] << (8 * i);
	}
	r->p += n;
	return v;
}

/* An n-byte integer (n <= 8) in the file's byte order; 0 past the end. */
static inline uint64_t rd_u(struct rd *r, unsigned n)
{
	assert(n <= 8);
	if ((size_t)(r->end - r->p) < n) {
		r->bad = 1;
		r->p = r->end;
		return 0;
	}
	uint64_t v = rd_le_unchecked(r, n);
	/* big-endian: the bytes were read reversed */
	return r->msb && n ? __builtin_bswap64(v) >> (64 - 8 * n) : v;
}

static inline uint64_t rd_uleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned shift = 0;

	/* one byte: abbrev codes, attribute names and forms, most values */
	if (r->p < r->end && *r->p < 0x80)
		return *r->p++;
	while (r->p < r->end) {
		unsigned char b = *r->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	r->bad = 1;
	return 0;
}

static inline int64_t rd_sleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (r->p < r->end) {
		unsigned char b = *r->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				v |= ~(uint64_t)0 << shift;
			return (int64_t)v;
		}
	}
	r->bad = 1;
	return 0;
}

/*
 * One (attribute, form) pair of an abbreviation's list at r, and the value
 * of a DW_FORM_implicit_const (else *implicit is 0): 1, 0 for the (0, 0)
 * ending the list, -1 when it runs past r->end (r->bad set).  Both nearly
 * always take one byte each: two bytes are read at once, LEB128s decoded
 * only for the others.
 */
static inline int rd_spec(struct rd *r, uint64_t *at, uint64_t *form, int64_t *implicit)
{
	const unsigned char *p = r->p;

	if (r->end - p >= 2 && (p[0] | p[1]) < 0x80) {
		*at = p[0];
		*form = p[1];
		r->p = p + 2;
	} else {
		*at = rd_uleb(r);
		*form = rd_uleb(r);
		if (r->bad)
			return -1;
	}
	*implicit = 0;
	if (*form == 0x21) {	/* DW_FORM_implicit_const: its value follows */
		*implicit = rd_sleb(r);
		if (r->bad)
			return -1;
	}
	return (*at | *form) != 0;
}

/*
 * Step over an abbreviation's (attribute, form) list, up to its (0, 0)
 * end: the number of attributes, or -1 when the list runs past r->end or
 * holds more than max.
 */
static inline long rd_skip_specs(struct rd *r, long max)
{
	for (long n = 0;; n++) {
		uint64_t at, form;
		int64_t implicit;
		int rc = rd_spec(r, &at, &form, &implicit);
		if (rc < 0 || n > max)
			break;
		if (rc == 0)
			return n;
	}
	r->p = r->end;
	r->bad = 1;
	return -1;
}

static inline void rd_skip(struct rd *r, uint64_t n)
{
	if ((uint64_t)(r->end - r->p) < n) {
		r->bad = 1;
		r->p = r->end;
		return;
	}
	r->p += n;
}

/* A NUL-terminated string at p inside [p, end), or NULL. */
static inline const char *cstr(const unsigned char *p, const unsigned char *end)
{
	if (!p || p >= end || !memchr(p, '\0', (size_t)(end - p)))
		return NULL;
	return (const char *)p;
}

/* The NUL-terminated string at the cursor, which moves past it; NULL
 * (and r->bad) when none ends before r->end. */
static inline const char *rd_cstr(struct rd *r)
{
	const char *s = cstr(r->p, r->end);

	if (!s) {
		r->bad = 1;
		return NULL;
	}
	r->p += strlen(s) + 1;
	return s;
}

static inline const char *sec_str(const struct sf_dwsec *s, uint64_t off)
{
	if (!s->data || off >= s->size)
		return NULL;
	if (s->pack)
		return sf_strpack_at(s->pack, off);
	if (s->terminated)
		return (const char *)s->data + off;
	return cstr(s->data + off, s->data + s->size);
}

/* The string at offset off of unit c's .debug_str, through the memo of
 * the thread that opened it when the section is packed. */
static inline const char *sf_ucx_str(const struct sf_ucx *c, uint64_t off)
{
	const struct sf_dwsec *s = &c->f->sec[SF_SEC_STR];

	if (s->pack && c->memo && off < s->size)
		return sf_strpack_memo_at(s->pack, c->memo, off);
	return sec_str(s, off);
}

/* A unit's geometry as a decode plan sees it: address size, offset size,
 * and whether ref_addr is address-sized (DWARF 2) (die.c). */
uint16_t sf_unit_geometry(const struct sf_unit *u);
/* Parse f's abbreviation table at off for units of geometry g, which its
 * plans assume (die.c; ucx.c opens units with it); -1 on corrupt input.
 * *tag (when want is not 0): the tag of the first abbreviation of code
 * want, 0 when none or above 0xffff (as sf_unit_die_tag says it). */
int sf_abbrevs_parse_for(struct sf_abbrevs *ab, const struct sf_dwfile *f, uint64_t off,
			 uint16_t g, uint64_t want, uint16_t *tag);

/* String idx of unit c's .debug_str_offsets contribution, or NULL; its
 * .debug_str offset, or UINT64_MAX when idx is out of range (forms.c). */
const char *sf_ucx_strx(const struct sf_ucx *c, uint64_t idx);
uint64_t sf_ucx_stroff(const struct sf_ucx *c, uint64_t idx);

#endif
