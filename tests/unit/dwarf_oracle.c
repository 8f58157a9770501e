/*
 * dwarf_oracle.c - the Dwarf_Obj_Access_Interface of dwarf_oracle.h:
 * section 0 is the empty null section libdwarf expects, then one entry per
 * DWARF section in e->dw[], named by its DWARF name (so ".zdebug_info" or
 * ".gnu.debuglto_.debug_info" reach libdwarf as ".debug_info"), with the
 * bytes the reader itself decodes.  libdwarf is given no relocation
 * callback: what it sees is already relocated.
 */
#include "dwarf_oracle.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

static int oracle_section_info(void *obj, Dwarf_Half idx, Dwarf_Obj_Access_Section *out,
			       int *error)
{
	const struct sf_elf *e = obj;

	(void)error;
	if (idx >= e->ndw)
		return DW_DLV_NO_ENTRY;
	memset(out, 0, sizeof(*out));
	out->name = e->dw_name[idx];
	if (idx == 0)
		return DW_DLV_OK;
	out->type = 1; /* SHT_PROGBITS: libdwarf ignores group/reloc types */
	out->size = e->sec[e->dw[idx]].size;
	return DW_DLV_OK;
}

static Dwarf_Endianness oracle_byte_order(void *obj)
{
	return ((const struct sf_elf *)obj)->msb ? DW_OBJECT_MSB : DW_OBJECT_LSB;
}

static Dwarf_Small oracle_length_size(void *obj)
{
	return ((const struct sf_elf *)obj)->is64 ? 8 : 4;
}

static Dwarf_Small oracle_pointer_size(void *obj)
{
	return ((const struct sf_elf *)obj)->addr_size;
}

static Dwarf_Unsigned oracle_section_count(void *obj)
{
	return ((const struct sf_elf *)obj)->ndw;
}

static int oracle_load_section(void *obj, Dwarf_Half idx, Dwarf_Small **data, int *error)
{
	const struct sf_elf *e = obj;

	(void)error;
	if (idx == 0 || idx >= e->ndw)
		return DW_DLV_NO_ENTRY;
	/* libdwarf only reads the bytes; the cast drops const for its API */
	*data = (Dwarf_Small *)(uintptr_t)e->sec[e->dw[idx]].data;
	return DW_DLV_OK;
}

static const Dwarf_Obj_Access_Methods oracle_methods = {
	oracle_section_info, oracle_byte_order, oracle_length_size, oracle_pointer_size,
	oracle_section_count, oracle_load_section, NULL,
};

int oracle_open(struct sf_elf *e, Dwarf_Obj_Access_Interface **iface,
		       Dwarf_Debug *dbg, struct sf_err *err)
{
	Dwarf_Error derr = NULL;

	*iface = sf_xcalloc(1, sizeof(**iface));
	(*iface)->object = e;
	(*iface)->methods = &oracle_methods;
	int rc = dwarf_object_init_b(*iface, NULL, NULL, DW_GROUPNUMBER_ANY, dbg, &derr);
	if (rc != DW_DLV_OK) {
		if (rc == DW_DLV_ERROR) {
			sf_error(err, "%s: corrupt DWARF (%s)", e->label, dwarf_errmsg(derr));
			dwarf_dealloc(NULL, derr, DW_DLA_ERROR);
		} else {
			sf_error(err, "%s: no DWARF debug info", e->label);
		}
		free(*iface);
		*iface = NULL;
		return -1;
	}
	return 0;
}

void oracle_close(Dwarf_Obj_Access_Interface *iface, Dwarf_Debug dbg)
{
	Dwarf_Error derr = NULL;

	if (dbg)
		dwarf_object_finish(dbg, &derr);
	free(iface);
}
