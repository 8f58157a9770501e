/*
 * fwd.c - a struct holding pointers to structs that a unit built with
 * -DDEFINE defines and one built without it only declares.  A pointer
 * reads only its target's spelling (dwarf/fingerprint.c,
 * spell_named_aggregate), so tests/e2e/identity.sh wants fwd_holder laid
 * out once for both.  Built with -DOTHER_TAG, the target behind the
 * pointers is a union of the same name; with -DOTHER_NAME, a struct of
 * another name: either spells the pointers otherwise, and its holder
 * must be a version of its own.
 */
#if defined(OTHER_TAG)
union fwd_target;
#define FWD_T union fwd_target
#elif defined(OTHER_NAME)
struct fwd_other;
#define FWD_T struct fwd_other
#else
struct fwd_target;
#define FWD_T struct fwd_target
#endif
union fwd_u;

struct fwd_holder {
	FWD_T *t;
	const FWD_T *ct;
	FWD_T **pp;
	void (*cb)(FWD_T *, union fwd_u *);
	union fwd_u *u;
	int n;
};

#ifdef DEFINE
/* defined below the holder: another line than the declaration's */
struct fwd_target { long a; int b; };
union fwd_u { int i; long l; };
struct fwd_target fwd_t;
union fwd_u fwd_v;
#endif

struct fwd_holder fwd_h;
