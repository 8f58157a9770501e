/*
 * dwfile.c - the unit table of one image's DWARF sections (see die.h,
 * struct sf_dwfile): every unit header of .debug_info and .debug_types,
 * the tag of each unit's DIE, and the signature -> type unit map.
 *
 *   sf_dwfile.units      one sf_unit per header, in section order
 *                        (.debug_info's, then .debug_types')
 *   sf_dwfile.sig_table  open addressing over the type units'
 *                        signatures: unit index + 1, 0 empty
 *   sf_dwfile.tags       each unit's DIE tag | SF_TAG_KNOWN once asked,
 *                        then whether any unit is a compile unit
 *
 * Built once per image before any unit is read, and read-only after
 * (but for the tags, each found once by whichever thread asks first,
 * stored atomically): every thread shares it.  The DIE decoder is die.c.
 */
#include <assert.h>
#include "die.h"
#include "cursor.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "lib/sort.h"
#include "lib/xalloc.h"

static int read_unit_header(struct sf_dwfile *f, int sect, uint64_t off,
			    struct sf_unit *u, struct sf_err *err)
{
	const struct sf_dwsec *s = &f->sec[sect];
	struct rd r = { s->data + off, s->data + s->size, f->msb, 0 };
	const char *sname = sect == SF_SEC_INFO ? ".debug_info" : ".debug_types";

	memset(u, 0, sizeof(*u));
	u->start = off;
	u->sect = (uint8_t)sect;
	uint64_t len = rd_u(&r, 4);
	u->offset_size = 4;
	if (len == 0xffffffffu) {
		len = rd_u(&r, 8);
		u->offset_size = 8;
	} else if (len >= 0xfffffff0u) {
		return sf_error_at(err, f->label, 0, 0,
				"corrupt DWARF (bad unit length at %s+0x%llx)", sname,
						(unsigned long long)off);
	}
	uint64_t body = (uint64_t)(r.p - s->data);
	if (r.bad || len > s->size - body)
		return sf_error_at(err, f->label, 0, 0,
				"corrupt DWARF (unit at %s+0x%llx runs past the section)",
						sname, (unsigned long long)off);
	u->end = body + len;
	r.end = s->data + u->end;
	u->version = (uint16_t)rd_u(&r, 2);
	if (u->version < 2 || u->version > 5)
		return sf_error_at(err, f->label, 0, 0,
				"unsupported DWARF version %u at %s+0x%llx", u->version,
						sname, (unsigned long long)off);
	u->unit_type = DW_UT_compile;
	if (u->version >= 5) {
		u->unit_type = (uint8_t)rd_u(&r, 1);
		u->addr_size = (uint8_t)rd_u(&r, 1);
		u->abbrev_off = rd_u(&r, u->offset_size);
		if (u->unit_type == DW_UT_type || u->unit_type == DW_UT_split_type) {
			u->sig8 = rd_u(&r, 8);
			u->type_die = u->start + rd_u(&r, u->offset_size);
		} else if (u->unit_type == DW_UT_skeleton ||
			   u->unit_type == DW_UT_split_compile) {
			u->sig8 = rd_u(&r, 8);	/* the dwo id */
		}
	} else {
		u->abbrev_off = rd_u(&r, u->offset_size);
		u->addr_size = (uint8_t)rd_u(&r, 1);
		if (sect == SF_SEC_TYPES) {
			u->unit_type = DW_UT_type;
			u->sig8 = rd_u(&r, 8);
			u->type_die = u->start + rd_u(&r, u->offset_size);
		}
	}
	u->die_start = (uint64_t)(r.p - s->data);
	/* DWARF 5 string offsets start past their section's 8/16-byte header
	 * (DW_AT_str_offsets_base overrides it); a GNU .dwo's have none */
	u->str_base = u->version >= 5 ? 2u * u->offset_size : 0;
	u->split = f->split;
	if (r.bad || (u->addr_size != 2 && u->addr_size != 4 && u->addr_size != 8) ||
	    u->abbrev_off >= f->sec[SF_SEC_ABBREV].size)
		return sf_error_at(err, f->label, 0, 0,
				"corrupt DWARF (bad unit header at %s+0x%llx)", sname,
						(unsigned long long)off);
	return 0;
}

uint64_t sf_unit_die_code(const struct sf_dwfile *f, const struct sf_unit *u)
{
	const struct sf_dwsec *info = &f->sec[u->sect];
	struct rd r = { info->data + u->die_start, info->data + u->end, f->msb, 0 };
	uint64_t code = rd_uleb(&r);

	return r.bad ? 0 : code;
}

/*
 * The tag of a unit's DIE, from its abbrev code and the entries of its
 * abbrev table up to that code (no table is built); 0 when it cannot be
 * told.  sf_abbrevs_parse_unit finds the same while parsing the table.
 */
static uint16_t unit_die_tag(const struct sf_dwfile *f, const struct sf_unit *u)
{
	const struct sf_dwsec *ab = &f->sec[SF_SEC_ABBREV];
	uint64_t want = sf_unit_die_code(f, u);

	if (want == 0)
		return 0;
	struct rd r = { ab->data + u->abbrev_off, ab->data + ab->size, f->msb, 0 };
	for (;;) {
		uint64_t code = rd_uleb(&r);
		if (r.bad || code == 0)
			return 0;
		uint64_t tag = rd_uleb(&r);
		if (code == want)
			return r.bad || tag > 0xffff ? 0 : (uint16_t)tag;
		rd_skip(&r, 1);	/* children */
		if (rd_skip_specs(&r, LONG_MAX) < 0)
			return 0;
	}
}

int sf_unit_is_type(const struct sf_unit *u)
{
	return u->unit_type == DW_UT_type || u->unit_type == DW_UT_split_type;
}

uint16_t sf_unit_die_tag(const struct sf_dwfile *f, size_t i)
{
	assert(i < f->nunits);
	/* a dwp's abbrev offsets are known only once its index is applied;
	 * .dwo/.dwp files hold no partial units */
	if (f->split)
		return 0;
	uint32_t v = __atomic_load_n(&f->tags[i], __ATOMIC_RELAXED);
	if (!v) {
		v = unit_die_tag(f, &f->units[i]) | SF_TAG_KNOWN;
		__atomic_store_n(&f->tags[i], v, __ATOMIC_RELAXED);
	}
	return (uint16_t)v;
}

int sf_unit_die_tag_known(const struct sf_dwfile *f, size_t i)
{
	assert(i < f->nunits);
	return f->split || __atomic_load_n(&f->tags[i], __ATOMIC_RELAXED) != 0;
}

void sf_unit_die_tag_note(const struct sf_dwfile *f, size_t i, uint16_t tag)
{
	assert(i < f->nunits && !f->split);
	__atomic_store_n(&f->tags[i], tag | SF_TAG_KNOWN, __ATOMIC_RELAXED);
}

int sf_dwfile_has_compile(const struct sf_dwfile *f)
{
	uint32_t v = __atomic_load_n(&f->tags[f->nunits], __ATOMIC_RELAXED);

	if (!v) {
		v = 1;
		for (size_t i = 0; i < f->nunits && v == 1; i++)
			if (sf_unit_die_tag(f, i) == DW_TAG_compile_unit)
				v = 2;
		__atomic_store_n(&f->tags[f->nunits], v, __ATOMIC_RELAXED);
	}
	return v == 2;
}

int sf_dwfile_all_partial(const struct sf_dwfile *f)
{
	for (size_t i = 0; i < f->nunits; i++)
		if (sf_unit_die_tag(f, i) != DW_TAG_partial_unit)
			return 0;
	return f->nunits > 0;
}

static void index_signatures(struct sf_dwfile *f)
{
	size_t ntu = 0;

	for (size_t i = 0; i < f->nunits; i++)
		ntu += sf_unit_is_type(&f->units[i]);
	if (!ntu)
		return;
	f->sig_cap = 16;
	while (f->sig_cap < ntu * 2)
		f->sig_cap *= 2;
	f->sig_table = sf_xcalloc(f->sig_cap, sizeof(uint32_t));
	for (size_t i = 0; i < f->nunits; i++) {
		if (!sf_unit_is_type(&f->units[i]))
			continue;
		size_t j = f->units[i].sig8 & (f->sig_cap - 1);
		while (f->sig_table[j])
			j = (j + 1) & (f->sig_cap - 1);
		f->sig_table[j] = (uint32_t)(i + 1);
	}
}

/* Whether any offset inside s starts a string (a pack is made only of a
 * section that ends in a NUL, and holds fewer bytes than its size). */
static int sec_ends_in_nul(const struct sf_dwsec *s)
{
	return s->pack || (s->data && s->size && s->data[s->size - 1] == '\0');
}

static int dwfile_init(struct sf_dwfile *f, const char *label, int msb, int split,
		       const struct sf_dwsec sec[SF_SEC_N], struct sf_err *err)
{
	size_t cap = 0;

	memset(f, 0, sizeof(*f));
	f->label = label;
	f->msb = (uint8_t)msb;
	f->split = (uint8_t)split;
	memcpy(f->sec, sec, sizeof(f->sec));
	for (int i = 0; i < SF_SEC_N; i++)
		f->sec[i].terminated = sec_ends_in_nul(&f->sec[i]);
	for (int sect = SF_SEC_INFO; sect <= SF_SEC_TYPES; sect++) {
		const struct sf_dwsec *s = &f->sec[sect];
		for (uint64_t off = 0; s->data && off < s->size;) {
			if (s->size - off < 4)
				break;	/* alignment padding at the end */
			SF_GROW(f->units, f->nunits, cap);
			struct sf_unit *u = &f->units[f->nunits];
			if (read_unit_header(f, sect, off, u, err) < 0) {
				sf_dwfile_release(f);
				return -1;
			}
			f->nunits++;
			off = u->end;
		}
	}
	if (f->nunits > UINT32_MAX - 1) {
		sf_dwfile_release(f);
		return sf_error_at(err, label, 0, 0, "too many DWARF units");
	}
	index_signatures(f);
	f->tags = sf_xcalloc(f->nunits + 1, sizeof(*f->tags));
	return 0;
}

int sf_dwfile_init(struct sf_dwfile *f, const char *label, int msb,
		   const struct sf_dwsec sec[SF_SEC_N], struct sf_err *err)
{
	return dwfile_init(f, label, msb, 0, sec, err);
}

int sf_dwfile_init_split(struct sf_dwfile *f, const char *label, int msb,
			 const struct sf_dwsec sec[SF_SEC_N], struct sf_err *err)
{
	return dwfile_init(f, label, msb, 1, sec, err);
}

void sf_dwfile_release(struct sf_dwfile *f)
{
	free(f->units);
	free(f->sig_table);
	free(f->tags);
	for (size_t i = 0; i < f->nretired; i++)
		free(f->retired[i]);
	free(f->retired);
	free(f->abbrev_starts);
	f->units = NULL;
	f->sig_table = NULL;
	f->tags = NULL;
	f->retired = NULL;
	f->abbrev_starts = NULL;
	f->nunits = f->nretired = f->nabbrev_starts = 0;
}

/* ---- a .debug_info arriving piecewise -------------------------------------- */

/* A tag that ties units together: their bytes are needed at once. */
static int ties_units(uint64_t tag)
{
	return tag == DW_TAG_partial_unit || tag == DW_TAG_imported_unit ||
	       tag == DW_TAG_type_unit || tag == DW_TAG_skeleton_unit;
}

/* An attribute value that leads outside its unit (or its file). */
static int reaches_out(uint64_t at, uint64_t form)
{
	switch (form) {
	case DW_FORM_ref_addr: case DW_FORM_ref_sig8: case DW_FORM_indirect:
	case DW_FORM_GNU_ref_alt: case DW_FORM_GNU_strp_alt:
	case DW_FORM_ref_sup4: case DW_FORM_ref_sup8: case DW_FORM_strp_sup:
		return 1;
	}
	return at == DW_AT_dwo_name || at == DW_AT_GNU_dwo_name || at == DW_AT_GNU_dwo_id;
}

/* Every abbreviation of every table of .debug_abbrev (tables back to
 * back, each ended by a 0 code): 1 when none ties or leads outside a
 * unit, the tables' offsets in *starts; else 0. */
static int scan_abbrevs(const struct sf_dwsec *ab, uint64_t **starts, size_t *n)
{
	struct rd r = { ab->data, ab->data + ab->size, 0, 0 };
	size_t cap = 0;

	while (r.p < r.end) {
		SF_GROW(*starts, *n, cap);
		(*starts)[(*n)++] = (uint64_t)(r.p - ab->data);
		for (uint64_t code = rd_uleb(&r); code && !r.bad; code = rd_uleb(&r)) {
			if (ties_units(rd_uleb(&r)))
				return 0;
			rd_skip(&r, 1);	/* children */
			uint64_t at, form;
			int64_t implicit;
			int rc;
			while ((rc = rd_spec(&r, &at, &form, &implicit)) > 0)
				if (reaches_out(at, form))
					return 0;
			if (rc < 0)
				return 0;
		}
		if (r.bad)
			return 0;
	}
	return 1;
}

int sf_dwfile_init_stream(struct sf_dwfile *f, const char *label, int msb,
			  const struct sf_dwsec sec[SF_SEC_N])
{
	uint64_t *starts = NULL;
	size_t n = 0;

	if ((sec[SF_SEC_TYPES].data && sec[SF_SEC_TYPES].size) || !sec[SF_SEC_ABBREV].data ||
	    !scan_abbrevs(&sec[SF_SEC_ABBREV], &starts, &n)) {
		free(starts);
		return 0;
	}
	memset(f, 0, sizeof(*f));
	f->label = label;
	f->msb = (uint8_t)msb;
	memcpy(f->sec, sec, sizeof(f->sec));
	for (int i = 0; i < SF_SEC_N; i++)
		f->sec[i].terminated = i != SF_SEC_INFO && sec_ends_in_nul(&f->sec[i]);
	f->streamed = 1;
	f->abbrev_starts = starts;
	f->nabbrev_starts = n;
	f->unitcap = 64;
	f->units = sf_xcalloc(f->unitcap, sizeof(*f->units));
	f->tags = sf_xcalloc(f->unitcap + 1, sizeof(*f->tags));
	return 1;
}

/* Room for one more unit: larger arrays, the old ones kept (readers may
 * still read them through their copies of f). */
static void stream_room(struct sf_dwfile *f)
{
	if (f->nunits < f->unitcap)
		return;
	size_t cap = f->unitcap * 2;
	struct sf_unit *u = sf_xreallocarray(NULL, cap, sizeof(*u));
	uint32_t *t = sf_xcalloc(cap + 1, sizeof(*t));
	memcpy(u, f->units, f->nunits * sizeof(*u));
	memcpy(t, f->tags, f->nunits * sizeof(*t));
	f->retired = sf_xreallocarray(f->retired, f->nretired + 2, sizeof(*f->retired));
	f->retired[f->nretired++] = f->units;
	f->retired[f->nretired++] = f->tags;
	f->units = u;
	f->tags = t;
	f->unitcap = cap;
}

static int known_table(const struct sf_dwfile *f, uint64_t off)
{
	size_t i = sf_lower_bound_u64(f->abbrev_starts, f->nabbrev_starts, off);

	return i < f->nabbrev_starts && f->abbrev_starts[i] == off;
}

/* The end of the unit whose header starts at off, once its length is
 * among the first avail bytes (0: not yet; the section's size: corrupt,
 * which read_unit_header then says). */
static uint64_t stream_unit_end(const struct sf_dwfile *f, uint64_t off, uint64_t avail)
{
	const struct sf_dwsec *s = &f->sec[SF_SEC_INFO];
	uint64_t need = avail == s->size ? 4 : 12;

	if (avail - off < need)
		return avail == s->size ? s->size : 0;
	struct rd r = { s->data + off, s->data + avail, f->msb, 0 };
	uint64_t len = rd_u(&r, 4), body = off + 4;
	if (len == 0xffffffffu) {
		len = rd_u(&r, 8);
		body += 8;
	}
	return r.bad || len > s->size - body ? s->size : body + len;
}

int sf_dwfile_grow(struct sf_dwfile *f, uint64_t avail, struct sf_err *err)
{
	const struct sf_dwsec *s = &f->sec[SF_SEC_INFO];

	assert(f->streamed && avail <= s->size);
	while (f->scanned < s->size && s->size - f->scanned >= 4) {
		uint64_t end = stream_unit_end(f, f->scanned, avail);
		if (!end || end > avail)
			return 0;	/* not all there yet */
		stream_room(f);
		struct sf_unit *u = &f->units[f->nunits];
		if (read_unit_header(f, SF_SEC_INFO, f->scanned, u, err) < 0)
			return -1;
		if (u->unit_type != DW_UT_compile || !known_table(f, u->abbrev_off))
			return sf_error_at(err, f->label, 0, 0,
					"corrupt DWARF (unit at .debug_info+0x%llx: %s)",
					(unsigned long long)f->scanned,
					u->unit_type != DW_UT_compile ? "not a compile unit"
					: "its abbreviation table starts inside another");
		if (f->nunits >= UINT32_MAX - 1)
			return sf_error_at(err, f->label, 0, 0, "too many DWARF units");
		f->tags[f->nunits] = unit_die_tag(f, u) | SF_TAG_KNOWN;
		f->nunits++;
		f->scanned = u->end;
	}
	f->scanned = s->size;
	return 0;
}

long sf_dwfile_sig_unit(const struct sf_dwfile *f, uint64_t sig)
{
	if (!f->sig_cap)
		return -1;
	for (size_t j = sig & (f->sig_cap - 1); f->sig_table[j]; j = (j + 1) & (f->sig_cap - 1))
		if (f->units[f->sig_table[j] - 1].sig8 == sig)
			return (long)f->sig_table[j] - 1;
	return -1;
}

long sf_dwfile_unit_at(const struct sf_dwfile *f, int sect, uint64_t off)
{
	/* units are sorted by (sect, start): binary search */
	size_t lo = 0, hi = f->nunits;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct sf_unit *u = &f->units[mid];
		if (u->sect < sect || (u->sect == sect && u->end <= off))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < f->nunits && f->units[lo].sect == sect &&
	    f->units[lo].start <= off && off < f->units[lo].end)
		return (long)lo;
	return -1;
}
