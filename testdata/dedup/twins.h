/*
 * twins.h - structs that come back in every unit, each in two versions
 * of the same name and size (VARIANT picks one): tests/e2e/identity.sh
 * builds units with either and checks that laying each distinct struct
 * out once (dwarf/fingerprint.h) reports exactly what laying out every
 * unit's structs does.  A key of name and size alone would merge each
 * pair; every difference below must keep both.
 *
 * Each struct is defined on one line for both versions, the difference
 * in a macro: the versions' DIEs then differ only where the macro does
 * (the same declaring file and line), so each must be told apart by what
 * it changes, not by where it is.
 */
#ifndef TWINS_H
#define TWINS_H

#ifndef VARIANT
#define VARIANT 0
#endif

#if VARIANT
#define TW_NAME c                       /* a member's name */
#define TW_INT unsigned                 /* a member's type, same size */
#define TW_NUM unsigned                 /* what a typedef stands for */
#define TW_DEEP j                       /* a member two levels down */
#define TW_POINTEE int                  /* the body of a pointed-to anonymous struct */
#define TW_ENUM TW_C                    /* an anonymous enum's enumerator */
#define TW_BITS_A 4                     /* bit-field widths */
#define TW_BITS_B 4
#define TW_DIM1 3                       /* array dimensions */
#define TW_DIM2 2
#define TW_PARAM long                   /* a function pointer's parameter */
#define TW_FIRST x                      /* the order of two members */
#define TW_SECOND y
#define TW_ALIGNED __attribute__((aligned(4))) /* an alignment attribute */
#else
#define TW_NAME b
#define TW_INT int
#define TW_NUM int
#define TW_DEEP k
#define TW_POINTEE unsigned
#define TW_ENUM TW_B
#define TW_BITS_A 3
#define TW_BITS_B 5
#define TW_DIM1 2
#define TW_DIM2 3
#define TW_PARAM int
#define TW_FIRST y
#define TW_SECOND x
#define TW_ALIGNED
#endif

struct by_name { int a; char b[4]; };
struct by_name_v { int a; char TW_NAME[4]; };
struct by_type { TW_INT a; char b[4]; };
typedef TW_NUM num_t;
struct by_typedef { num_t n; num_t m; };
struct inner2 { short s; char TW_DEEP; };
struct by_nested { struct inner2 i; char tail; };
struct by_pointee { struct { TW_POINTEE q; } *p; };
struct by_pointer { struct inner2 *p; struct by_pointer *next; };
struct by_enum { enum { TW_A, TW_ENUM } e; };
struct by_bits { unsigned a : TW_BITS_A, b : TW_BITS_B; };
struct by_dims { char a[TW_DIM1][TW_DIM2]; };
struct by_params { void (*f)(TW_PARAM); };
typedef struct { char TW_FIRST; int TW_SECOND; } by_anon_t;
struct by_aligned { int a; int b TW_ALIGNED; };

/* DWARF does not say "packed": struct pbase's DIEs are the same either
 * way.  A unit built with PACKED_HOLDER declares it packed and holds it at
 * offset 1 of a struct that is not packed (a hole follows it), which shows
 * pbase is packed there (pahole infers the same, tests/e2e/packed.sh):
 * evidence from another type of the unit, so that unit lays pbase out
 * again, and both versions are reported.
 *
 * The pbase_* structs hold pbase where no offset shows anything (at 0, in
 * every unit the same DIEs), yet take its alignment: 4, or 1 where pbase
 * is packed - two versions each.  A PACKED_HOLDER unit lays them out
 * again too, for what their layout reads of pbase (dwarf/dedup.c): by
 * value, through a typedef of an array, as an anonymous struct shown
 * nested and as one pointed to; its other structs stay skipped. */
#ifdef PACKED_HOLDER
#define TW_PACKED __attribute__((packed))
#else
#define TW_PACKED
#endif
struct TW_PACKED pbase { int x; int y; };
#ifdef PACKED_HOLDER
struct holder { char c; struct pbase b; int after; };
#endif
struct pbase_user { struct pbase b; };
typedef struct pbase pbase_pair[2];
struct pbase_arr { pbase_pair p; };
struct pbase_nest { struct { struct pbase b; } in; };
struct pbase_ptr { struct { struct pbase b; } *p; };
/* A unit lays out what a member holds by value, or takes what an
 * earlier unit's layout gave (dwarf/members.c, layout summaries): not
 * pbase_user's alignment of 4 where pbase is packed. */
#ifdef PACKED_HOLDER
struct pbase_new { struct pbase_user u; };
#endif

#endif
