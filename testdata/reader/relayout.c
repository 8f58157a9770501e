/*
 * relayout.c - packing evidence met after the types that read the packed
 * struct were laid out (dwarf/members.c, rd_unlay_marked).  DWARF does
 * not say "packed": struct pk's DIEs are those of a plain struct.  The
 * unit lays out user and user_td first, with pk's natural alignment of
 * 4; holder then holds pk at offset 1, which shows pk is packed, and the
 * layouts that read pk are made again (alignment 1); plain reads nothing
 * of pk and keeps its layout.
 */
struct __attribute__((packed)) pk { int x; int y; };
struct user { struct pk p; };
typedef struct pk pk_pair[2];
struct user_td { pk_pair p; };
struct plain { long l; char c; };
struct holder { char c; struct pk p; int after; };

struct user u;
struct user_td ut;
struct plain pl;
struct holder h;
