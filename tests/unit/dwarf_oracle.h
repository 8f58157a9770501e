/*
 * dwarf_oracle.h - libdwarf over an sf_elf, for the tests only.
 *
 * structfit decodes DIEs itself (dwarf/die.c) and does not link libdwarf;
 * libdwarf is the reference its decoder is checked against.  This glue
 * shows libdwarf the DWARF sections sf_elf_prepare_debug() picked, through
 * a Dwarf_Obj_Access_Interface: both decoders then read the very same
 * (inflated, relocated) bytes - so it checks decoding, never relocation,
 * which happened before either saw them.  Linked into the test_dwarf_*
 * binaries (with libdwarf), never into structfit.
 */
#ifndef TEST_DWARF_ORACLE_H
#define TEST_DWARF_ORACLE_H

#include <libdwarf.h>

#include "input/elfobj.h"
#include "lib/err.h"

/* A Dwarf_Debug reading e's DWARF sections; close with oracle_close(). */
int oracle_open(struct sf_elf *e, Dwarf_Obj_Access_Interface **iface,
		       Dwarf_Debug *dbg, struct sf_err *err);
void oracle_close(Dwarf_Obj_Access_Interface *iface, Dwarf_Debug dbg);

#endif
