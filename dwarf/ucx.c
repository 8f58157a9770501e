/*
 * ucx.c - opening a unit (struct sf_ucx, see die.h): its abbreviation
 * table parsed (die.c) or shared (dwz's partial units), what its unit DIE
 * says of it (language, line table, string offsets base, split DWARF's
 * dwo name and id, a split unit's skeleton context), and releasing it.
 */
#include "die.h"
#include "cursor.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

/*
 * A split unit's line table (see struct sf_unit) and comp dir.  Without
 * its skeleton, a compile unit reads .debug_line.dwo only when gcc made
 * it: clang writes one only for its type units, and its compile units'
 * file numbers index the skeleton's table - better no file than a wrong one.
 */
static void split_unit_context(struct sf_ucx *c, const struct sf_die *d)
{
	const struct sf_unit *u = c->u;
	const struct sf_dwsec *own = &c->f->sec[SF_SEC_LINE];

	if (u->line_sec) {
		c->has_stmt_list = u->has_line;
		c->stmt_list = u->line_base;
	} else if (own->data && (c->has_stmt_list ||
				 (d->producer && !strncmp(d->producer, "GNU ", 4)))) {
		c->stmt_list = u->line_base + (c->has_stmt_list ? c->stmt_list : 0);
		c->has_stmt_list = c->stmt_list >= u->line_base;	/* no wrap-around */
	} else {
		c->has_stmt_list = 0;
	}
	if (!*c->comp_dir && u->comp_dir)
		c->comp_dir = u->comp_dir;
}

/*
 * A table parsed on its own (dwz's shared partial-unit tables) is compiled
 * for the geometry of the first unit using it: the others nearly always
 * share it, and any that does not decodes without the plans.
 */
int sf_abbrevs_parse(struct sf_abbrevs *ab, const struct sf_dwfile *f, uint64_t off)
{
	uint16_t g = (uint16_t)(8 | 4 << 4);	/* no unit's: 64-bit, 32-bit DWARF */

	for (size_t i = 0; i < f->nunits; i++)
		if (f->units[i].abbrev_off == off) {
			g = sf_unit_geometry(&f->units[i]);
			break;
		}
	memset(ab, 0, sizeof(*ab));
	if (sf_abbrevs_parse_for(ab, f, off, g, 0, NULL) < 0) {
		sf_abbrevs_release(ab);
		return -1;
	}
	return 0;
}

void sf_abbrevs_release(struct sf_abbrevs *ab)
{
	free(ab->v);
	free(ab->attrs);
	free(ab->direct);
	free(ab->steps);
	free(ab->ops);
	memset(ab, 0, sizeof(*ab));
}

static void ucx_init(struct sf_ucx *c, const struct sf_dwfile *f, size_t i)
{
	assert(i < f->nunits);
	memset(c, 0, sizeof(*c));
	c->f = f;
	c->u = &f->units[i];
	c->unit_index = i;
	c->base = f->sec[c->u->sect].data;
	c->sect_size = f->sec[c->u->sect].size;
	c->str_offsets_base = c->u->str_base;
	c->msb = f->msb;
	c->die_start = c->u->die_start;
	c->end = c->u->end;
}

static int ucx_read_unit_die(struct sf_ucx *c, struct sf_err *err);

int sf_ucx_open(struct sf_ucx *c, const struct sf_dwfile *f, size_t i, struct sf_err *err)
{
	ucx_init(c, f, i);
	if (sf_abbrevs_parse_for(&c->ab, f, c->u->abbrev_off, sf_unit_geometry(c->u), 0, NULL) < 0) {
		sf_ucx_release(c);
		return sf_error_at(err, f->label, 0, 0,
				"corrupt DWARF (bad abbreviation table at 0x%llx)",
						(unsigned long long)c->u->abbrev_off);
	}
	c->abv = &c->ab;
	c->plan_ok = 1;
	return ucx_read_unit_die(c, err);
}

int sf_abbrevs_parse_unit(struct sf_abbrevs *ab, const struct sf_dwfile *f, size_t i)
{
	assert(i < f->nunits && !f->split);
	const struct sf_unit *u = &f->units[i];
	uint64_t want = sf_unit_die_code(f, u);
	uint16_t tag = 0;

	memset(ab, 0, sizeof(*ab));
	if (sf_abbrevs_parse_for(ab, f, u->abbrev_off, sf_unit_geometry(u), want, &tag) < 0) {
		sf_abbrevs_release(ab);
		return -1;
	}
	sf_unit_die_tag_note(f, i, tag);
	return 0;
}

int sf_ucx_open_parsed(struct sf_ucx *c, const struct sf_dwfile *f, size_t i,
		       struct sf_abbrevs *ab, struct sf_err *err)
{
	ucx_init(c, f, i);
	c->ab = *ab;
	memset(ab, 0, sizeof(*ab));
	c->abv = &c->ab;
	c->plan_ok = 1;
	return ucx_read_unit_die(c, err);
}

int sf_ucx_open_shared(struct sf_ucx *c, const struct sf_dwfile *f, size_t i,
		       const struct sf_abbrevs *ab, struct sf_err *err)
{
	ucx_init(c, f, i);
	c->abv = ab;
	c->plan_ok = ab->geometry == sf_unit_geometry(c->u);
	return ucx_read_unit_die(c, err);
}

/* What the unit DIE says of the unit (language, line table, base offsets). */
static int ucx_read_unit_die(struct sf_ucx *c, struct sf_err *err)
{
	const struct sf_dwfile *f = c->f;
	/* all zero: language, producer, dwo_name and dwo_id are set only
	 * when the DIE has them */
	struct sf_die d = { .producer = NULL };

	/* The unit DIE first: strx forms need DW_AT_str_offsets_base, which
	 * DWARF 5 compilers put before any string attribute. */
	if (c->u->die_start < c->u->end) {
		if (sf_die_read(c, c->u->die_start, &d) < 0) {
			sf_ucx_release(c);
			return sf_error_at(err, f->label, 0, 0,
					"corrupt DWARF (bad unit DIE at 0x%llx)",
							(unsigned long long)c->u->die_start);
		}
		if (d.has & SF_A_STR_OFFSETS_BASE) {
			c->str_offsets_base = d.str_offsets_base;
			sf_die_read(c, c->u->die_start, &d);
		}
		c->lang = (uint16_t)d.language;
		c->has_stmt_list = (d.has & SF_A_STMT_LIST) != 0;
		c->stmt_list = d.stmt_list;
		c->comp_dir = (d.has & SF_A_COMP_DIR) ? d.comp_dir : "";
		c->name = (d.has & SF_A_NAME) && d.name ? d.name : "";
		c->dwo_name = d.dwo_name;
		c->dwo_id = d.dwo_id;
		c->has_dwo_id = d.has_dwo_id;
	}
	if (c->u->version >= 5 && (c->u->unit_type == DW_UT_skeleton ||
				   c->u->unit_type == DW_UT_split_compile)) {
		c->dwo_id = c->u->sig8;
		c->has_dwo_id = 1;
	}
	if (c->u->split)
		split_unit_context(c, &d);
	return 0;
}

void sf_ucx_release(struct sf_ucx *c)
{
	sf_abbrevs_release(&c->ab);	/* a shared table stays its owner's */
	c->abv = NULL;
}
