/*
 * cxx_base.h - a polymorphic base class whose key function (the first
 * non-inline virtual function) is defined in cxx_base.cpp only.  g++ then
 * writes the full definition of Base into cxx_base.o's DWARF and only a
 * declaration (DW_AT_declaration) into every other object that uses it,
 * such as cxx_derived.o.  pahole 1.24 shows that declared-only base as a
 * hole; structfit must look it up in the other inputs, or report the
 * struct as incomplete, never as a hole.
 */
struct Base {
	virtual ~Base();
	virtual void f();
	long b;
};
