/*
 * srctree.c - the source tree around a patched struct (see srctree.h):
 * the file to patch found, and the tree walked (lib/walk.h) and lexed.
 *
 * The sorted list of C files under the root is first cut to the files
 * around the struct (bound_files: each read once for its #include names,
 * an array of struct cinfo parallel to the list, marked up and down the
 * include graph by base name).  Two passes over what is left: the first
 * collects definitions, typedef names and macros (a use through a typedef
 * declared in another file needs every name first), the second the uses.
 * Files are read again in the second pass rather than kept: a tree may be
 * large, and lexing is cheap next to reading DWARF.
 */
#include "srctree.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "layout/cdecl.h"
#include "layout/rustpatch.h"
#include "lib/path.h"
#include "lib/file.h"
#include "lib/walk.h"
#include "lib/xalloc.h"

#define MAX_DEPTH 32
#define MAX_FILE_BYTES (64u << 20)

/* -------------------------------------------------------------- walking */

struct file_list {
	char **rel;
	size_t n, cap;
};

/* A C file; with cxx (a C++ class's tree) C++ sources and headers too. */
static int is_c_file(const char *name, int cxx)
{
	static const char *const ext[] = { ".c", ".h", ".h.in", ".c.in", ".inc", NULL };
	static const char *const cxx_ext[] = {
		".c", ".h", ".h.in", ".c.in", ".inc", ".cc", ".cpp", ".cxx", ".C", ".c++",
		".hh", ".hpp", ".hxx", ".H", ".h++", ".ipp", ".tcc", NULL
	};
	size_t len = strlen(name);

	for (const char *const *e = cxx ? cxx_ext : ext; *e; e++) {
		size_t k = strlen(*e);
		if (len > k && !strcmp(name + len - k, *e))
			return 1;
	}
	return 0;
}

struct lists {
	struct file_list *c, *other;
	int cxx;
};

/* c gets the C files, other every other file (an #include may name one). */
static int visit(void *arg, const struct sf_walk_entry *e)
{
	struct lists *ls = arg;

	if (e->name[0] == '.')
		return SF_WALK_SKIP;
	if (S_ISDIR(e->st.st_mode))
		return e->depth + 1 < MAX_DEPTH ? SF_WALK_DESCEND : SF_WALK_SKIP;
	if (S_ISREG(e->st.st_mode) && (uint64_t)e->st.st_size <= MAX_FILE_BYTES) {
		struct file_list *to = is_c_file(e->name, ls->cxx) ? ls->c : ls->other;
		SF_GROW(to->rel, to->n, to->cap);
		to->rel[to->n++] = sf_xstrdup(e->rel);
	}
	return SF_WALK_SKIP;
}

/* The text of root/rel, or -1 (unreadable, or not text: skipped). */
static int read_file(const char *root, const char *rel, struct strbuf *sb)
{
	struct strbuf path = STRBUF_INIT;

	sb_addf(&path, "%s/%s", root, rel);
	int rc = sf_read_file(path.buf, sb);
	sb_release(&path);
	return rc < 0 || !sf_is_text(sb) ? -1 : 0;
}

/* ------------------------------------------------------------ bounding */

/*
 * What one read of a C file tells, before anything is lexed: the names its
 * #include lines give (the last component: "../big.h" and <proj/big.h> are
 * big.h, as -I directories are not known), and whether it names the
 * struct's tag as a word.
 */
struct cinfo {
	char **inc;
	size_t ninc, cap;
	bool names;
	bool mark;       /* to be lexed */
};

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/* Whether s holds w as a whole identifier. */
static bool names_word(const char *s, size_t len, const char *w)
{
	size_t k = strlen(w);
	const char *end = s + len;

	for (const char *p = s; k && p < end && (p = memmem(p, (size_t)(end - p), w, k)); p++)
		if ((p == s || !ident_char(p[-1])) && (p + k == end || !ident_char(p[k])))
			return true;
	return false;
}

/* The name an #include line at q (after "include") gives, added to ci. */
static void add_include(const char *q, const char *le, struct cinfo *ci)
{
	while (q < le && (*q == ' ' || *q == '\t'))
		q++;
	if (q >= le || (*q != '"' && *q != '<'))
		return;
	const char *e = memchr(q + 1, *q == '"' ? '"' : '>', (size_t)(le - q - 1));
	if (!e)
		return;
	const char *b = e;
	while (b > q + 1 && b[-1] != '/')
		b--;
	if (b == e)
		return;
	SF_GROW(ci->inc, ci->ninc, ci->cap);
	ci->inc[ci->ninc++] = sf_xstrndup(b, (size_t)(e - b));
}

/* Every "#include NAME" line of s (a commented-out one too: more is safe). */
static void scan_includes(const char *s, size_t len, struct cinfo *ci)
{
	const char *end = s + len;

	for (const char *p = s; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *q = p;
		while (q < le && (*q == ' ' || *q == '\t'))
			q++;
		if (q < le && *q == '#') {
			for (q++; q < le && (*q == ' ' || *q == '\t'); q++)
				;
			if (le - q > 7 && !memcmp(q, "include", 7))
				add_include(q + 7, le, ci);
		}
		p = le + 1;
	}
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool in_sorted(char *const *v, size_t n, const char *name)
{
	return n && bsearch(&name, v, n, sizeof(*v), cmp_str);
}

/* The base names of the marked files (and `seed`), sorted; *k of them. */
static const char **marked_names(const struct file_list *fl, const struct cinfo *ci,
				 const char *seed, size_t *k)
{
	const char **v = sf_xcalloc(fl->n + 2, sizeof(*v));

	*k = 0;
	v[(*k)++] = seed;
	for (size_t i = 0; i < fl->n; i++)
		if (ci[i].mark)
			v[(*k)++] = base_name(fl->rel[i]);
	qsort(v, *k, sizeof(*v), cmp_str);
	return v;
}

/*
 * Up: the files that include a marked one (by its base name, or the
 * struct's own file's), directly or through headers, marked, until none
 * is added.
 */
static void mark_includers(const struct file_list *fl, struct cinfo *ci, const char *seed)
{
	for (bool more = true; more;) {
		size_t k;
		const char **names = marked_names(fl, ci, seed, &k);
		more = false;
		for (size_t i = 0; i < fl->n; i++)
			for (size_t j = 0; !ci[i].mark && j < ci[i].ninc; j++)
				if (in_sorted((char *const *)names, k, ci[i].inc[j]))
					more = ci[i].mark = true;
		free(names);
	}
}

/*
 * Down: the files a marked one includes, and theirs (the macros and
 * typedef names a marked file sees), marked, until none is added.
 */
static void mark_included(const struct file_list *fl, struct cinfo *ci)
{
	for (bool more = true; more;) {
		char **inc = NULL;
		size_t n = 0, cap = 0;
		for (size_t i = 0; i < fl->n; i++)
			for (size_t j = 0; ci[i].mark && j < ci[i].ninc; j++) {
				SF_GROW(inc, n, cap);
				inc[n++] = ci[i].inc[j];
			}
		if (n)
			qsort(inc, n, sizeof(*inc), cmp_str);
		more = false;
		for (size_t i = 0; i < fl->n; i++)
			if (!ci[i].mark && in_sorted(inc, n, base_name(fl->rel[i])))
				more = ci[i].mark = true;
		free(inc);
	}
}

/*
 * fl cut to the files that matter for the struct named tag (a C++ class by
 * its own name), whose file is seed_rel:
 * each C file is read once (not lexed) for its #include names and the
 * tag; kept are the struct's file, the files naming its tag (its other
 * definitions, a .h.in, declarations of its typedefs and holders), every
 * file including one of those directly or through headers (where a use
 * or a store can be: they need the whole type), and what those include
 * (macros, typedef names).  *nread counts the files read.
 */
static void bound_files(const char *root, const char *tag, const char *seed_rel,
			struct file_list *fl, size_t *nread)
{
	struct cinfo *ci = sf_xcalloc(fl->n + 1, sizeof(*ci));
	size_t k = 0;

	*nread = 0;
	for (size_t i = 0; i < fl->n; i++) {
		struct strbuf text = STRBUF_INIT;
		if (read_file(root, fl->rel[i], &text) == 0) {
			(*nread)++;
			scan_includes(text.buf, text.len, &ci[i]);
			ci[i].names = names_word(text.buf, text.len, tag);
		}
		ci[i].mark = ci[i].names || !strcmp(fl->rel[i], seed_rel);
		sb_release(&text);
	}
	mark_includers(fl, ci, base_name(seed_rel));
	mark_included(fl, ci);
	for (size_t i = 0; i < fl->n; i++) {
		if (ci[i].mark)
			fl->rel[k++] = fl->rel[i];
		else
			free(fl->rel[i]);
		for (size_t j = 0; j < ci[i].ninc; j++)
			free(ci[i].inc[j]);
		free(ci[i].inc);
	}
	fl->n = k;
	free(ci);
}

/* ------------------------------------------------------------ generated */

/* Why d's file looks generated, if it does: its banner, else its directory. */
static void why_generated(const struct sf_lexed *lx, const char *rel, struct sf_srcdef *d)
{
	d->build_dir[0] = '\0';
	if (sf_srcscan_banner(lx, &d->banner_line, d->banner, sizeof(d->banner)))
		return;
	d->banner[0] = '\0';
	d->banner_line = 0;
	sf_srcscan_build_dir(rel, d->build_dir, sizeof(d->build_dir));
}

/* ---------------------------------------------------------------- passes */

/* Whether text holds the struct's tag or one of its other names. */
static int mentions_name(const struct sf_typenames *tn, const struct strbuf *text)
{
	if (tn->tag && strstr(text->buf, tn->tag))
		return 1;
	for (size_t i = 0; i < tn->nplain; i++)
		if (strstr(text->buf, tn->plain[i]))
			return 1;
	for (size_t i = 0; i < tn->ntags; i++)
		if (strstr(text->buf, tn->tags[i]))
			return 1;
	return 0;
}

static void find_defs(struct sf_srctree *st, const struct sf_type *t,
		      const char *rel, const struct strbuf *text)
{
	struct sf_src_why why;
	struct sf_cdecl_ctx x = { .path = rel, .tname = t->name, .why = &why,
				   .macros = &st->macros };
	struct sf_cdecl_def d[16];

	if (!mentions_name(&st->names, text))
		return;
	sf_clex(&x.lx, text->buf, text->len);
	sf_srcscan_holders(&x.lx, &st->names, &st->holders);
	size_t n = sf_cdecl_definitions(&x, t, d, 16);
	for (size_t i = 0; i < n && i < 16; i++) {
		struct sf_srcdef *s;
		st->defs = sf_xreallocarray(st->defs, st->ndefs + 1, sizeof(*st->defs));
		s = &st->defs[st->ndefs++];
		s->rel = sf_xstrdup(rel);
		s->line = d[i].line;
		s->matches = d[i].matches;
		why_generated(&x.lx, rel, s);
	}
	sf_clex_free(&x.lx);
}

/*
 * The files of `other` that lx's `#include "NAME"` lines name (by base
 * name), moved to the end of fl: X-macro tables such as Redis's
 * commands.def are C wherever their extension says otherwise.
 */
static void add_included(const struct sf_lexed *lx, struct file_list *fl,
			 struct file_list *other)
{
	for (size_t i = 0; i < lx->ntok; i++) {
		const struct sf_tok *t = &lx->tok[i];
		const char *q, *e;
		if (t->kind != TK_PP || sf_clex_directive(lx, t) != SF_PP_OTHER)
			continue;
		q = memchr(lx->text + t->start, '"', t->end - t->start);
		if (!q || !memmem(lx->text + t->start, (size_t)(q - lx->text) - t->start,
				  "include", 7))
			continue;
		e = memchr(q + 1, '"', (size_t)(lx->text + t->end - q - 1));
		if (!e)
			continue;
		const char *name = q + 1;
		for (const char *sl; (sl = memchr(name, '/', (size_t)(e - name)));)
			name = sl + 1;
		for (size_t k = 0; k < other->n; k++) {
			const char *b = base_name(other->rel[k]);
			if (strlen(b) != (size_t)(e - name) || memcmp(b, name, (size_t)(e - name)))
				continue;
			SF_GROW(fl->rel, fl->n, fl->cap);
			fl->rel[fl->n++] = other->rel[k];
			other->rel[k--] = other->rel[--other->n];
		}
	}
}

static void first_pass(struct sf_srctree *st, const struct sf_type *t,
		       struct file_list *fl, struct file_list *other)
{
	for (size_t i = 0; i < fl->n; i++) {
		struct strbuf text = STRBUF_INIT;
		struct sf_lexed lx;
		if (read_file(st->root, fl->rel[i], &text) == 0) {
			st->nfiles++;
			sf_clex(&lx, text.buf, text.len);
			sf_cmacros_add(&st->macros, &lx);
			sf_srcscan_typedefs(&lx, t->name, &st->names);
			add_included(&lx, fl, other);
			sf_clex_free(&lx);
		}
		sb_release(&text);
	}
	sf_srcscan_macro_names(&st->macros, &st->names);
	/* definitions once every macro is known: members spelled with them */
	for (size_t i = 0; i < fl->n; i++) {
		struct strbuf text = STRBUF_INIT;
		if (read_file(st->root, fl->rel[i], &text) == 0)
			find_defs(st, t, fl->rel[i], &text);
		sb_release(&text);
	}
}

/*
 * Whether rel defines a struct of the same name that is not the build's
 * (two programs in one tree, each with its own `struct config`): its uses
 * are that struct's.
 */
static int defines_another(const struct sf_srctree *st, const char *rel)
{
	int other = 0;

	for (size_t i = 0; i < st->ndefs; i++) {
		if (strcmp(st->defs[i].rel, rel))
			continue;
		if (st->defs[i].matches)
			return 0;
		other = 1;
	}
	return other;
}

/* Uses in line order (then kind: one line may hold two). */
static int cmp_use(const void *a, const void *b)
{
	const struct sf_use *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return (x->kind > y->kind) - (x->kind < y->kind);
}

static void second_pass(struct sf_srctree *st, const struct file_list *fl)
{
	for (size_t i = 0; i < fl->n; i++) {
		struct strbuf text = STRBUF_INIT;
		struct sf_use *v = NULL;
		size_t n = 0;
		struct sf_lexed lx;
		/* a file naming neither the struct nor a holder has no use of
		 * them: not lexed (most of a large tree) */
		if (defines_another(st, fl->rel[i]) ||
		    read_file(st->root, fl->rel[i], &text) < 0 ||
		    (!mentions_name(&st->names, &text) &&
		     !mentions_name(&st->holders.names, &text))) {
			sb_release(&text);
			continue;
		}
		sf_clex(&lx, text.buf, text.len);
		sf_srcscan_uses(&lx, &st->names, &v, &n);
		sf_srcscan_holder_uses(&lx, &st->holders, &v, &n);
		if (n > 1)
			qsort(v, n, sizeof(*v), cmp_use);
		for (size_t k = 0; k < n; k++) {
			st->uses = sf_xreallocarray(st->uses, st->nuses + 1, sizeof(*st->uses));
			st->uses[st->nuses].rel = sf_xstrdup(fl->rel[i]);
			st->uses[st->nuses++].use = v[k];
		}
		free(v);
		sf_clex_free(&lx);
		sb_release(&text);
	}
}

void sf_srctree_scan(const char *root, const struct sf_type *t, const char *seed_rel,
		     struct sf_srctree *st)
{
	struct file_list fl = { NULL, 0, 0 }, other = { NULL, 0, 0 };

	memset(st, 0, sizeof(*st));
	st->root = sf_xstrdup(root);
	int cxx = (t->flags & SF_TF_CXX) != 0;
	st->names.tag = cxx ? sf_cdecl_last_name(t->name) : t->name;
	if (cxx)
		sf_typenames_add(&st->names, st->names.tag);
	struct lists ls = { &fl, &other, cxx };
	struct sf_walk w = { .visit = visit, .arg = &ls };

	sf_walk_dir(root, &w);
	if (fl.n)
		qsort(fl.rel, fl.n, sizeof(*fl.rel), cmp_str);
	if (other.n)
		qsort(other.rel, other.n, sizeof(*other.rel), cmp_str);
	bound_files(root, st->names.tag, seed_rel, &fl, &st->nread);
	first_pass(st, t, &fl, &other);
	second_pass(st, &fl);
	st->crel = fl.rel;      /* kept: sf_srctree_stores reads them again */
	st->ncrel = fl.n;
	for (size_t i = 0; i < other.n; i++)
		free(other.rel[i]);
	free(other.rel);
}

void sf_srctree_stores(const struct sf_srctree *st, const char *member,
		       const struct sf_store_range *r, struct sf_srcstore **v, size_t *n)
{
	for (size_t i = 0; i < st->ncrel; i++) {
		struct strbuf text = STRBUF_INIT;
		struct sf_store *s = NULL;
		size_t ns = 0;
		struct sf_lexed lx;
		/* lex only the files that spell the name (a tree of 10,000 files) */
		if (read_file(st->root, st->crel[i], &text) < 0 ||
		    !memmem(text.buf, text.len, member, strlen(member))) {
			sb_release(&text);
			continue;
		}
		sf_clex(&lx, text.buf, text.len);
		sf_srcstore_find(&lx, member, r, &s, &ns);
		for (size_t k = 0; k < ns; k++) {
			*v = sf_xreallocarray(*v, *n + 1, sizeof(**v));
			(*v)[*n].rel = sf_xstrdup(st->crel[i]);
			(*v)[(*n)++].store = s[k];
		}
		free(s);
		sf_clex_free(&lx);
		sb_release(&text);
	}
}


void sf_srctree_release(struct sf_srctree *st)
{
	for (size_t i = 0; i < st->ndefs; i++)
		free(st->defs[i].rel);
	for (size_t i = 0; i < st->nuses; i++)
		free(st->uses[i].rel);
	for (size_t i = 0; i < st->ncrel; i++)
		free(st->crel[i]);
	free(st->crel);
	free(st->defs);
	free(st->uses);
	free(st->root);
	sf_cmacros_release(&st->macros);
	sf_typenames_release(&st->names);
	sf_holders_release(&st->holders);
	memset(st, 0, sizeof(*st));
}

/* ----------------------------------------------------- the file to patch */

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* "root/rel" in a new string. */
static char *join(const char *root, const char *rel)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, root);
	if (sb.len && sb.buf[sb.len - 1] != '/')
		sb_addch(&sb, '/');
	sb_adds(&sb, rel);
	return sb_detach(&sb);
}

void sf_source_release(struct sf_source *src)
{
	free(src->path);
	free(src->rel);
	src->path = src->rel = NULL;
}

int sf_source_read(const char *path, struct strbuf *text, struct strbuf *err)
{
	int rc = sf_read_file(path, text);

	if (rc == SF_FILE_CANNOT_OPEN)
		sb_addf(err, "%s: %s", path, strerror(errno));
	else if (rc < 0)
		sb_addf(err, "%s: read error", path);
	else if (!sf_is_text(text))
		sb_addf(err, "%s: not a text file (it holds NUL bytes)", path);
	else
		return 0;
	return -1;
}

/* The real path of dir into out, or -1 after a message. */
static int real_dir(const char *dir, char *out, struct strbuf *err)
{
	if (realpath(dir, out))
		return 0;
	sb_addf(err, "%s: source root: %s", dir, strerror(errno));
	return -1;
}

/* The input file t was read from ("lib.a(x.o)": lib.a), its directory in
 * dir; "." when it names none. */
static void origin_dir(const struct sf_type *t, struct strbuf *dir)
{
	const char *o = t->origin ? t->origin : "";
	size_t n = strlen(o);
	const char *paren = n && o[n - 1] == ')' ? strrchr(o, '(') : NULL;

	if (paren)
		n = (size_t)(paren - o);
	while (n && o[n - 1] != '/')
		n--;
	if (!n)
		sb_adds(dir, ".");
	else
		sb_add(dir, o, n);
}

/* The deepest directory both real paths a (a directory) and b are below. */
static void common_dir(const char *a, const char *b, char *out)
{
	size_t k = 0, last = 0;

	for (; a[k] && a[k] == b[k]; k++)
		if (a[k] == '/')
			last = k;
	if (!a[k] && b[k] == '/')
		last = k;
	memcpy(out, a, last);
	out[last ? last : 1] = '\0';
	if (!last)
		out[0] = '/';
}

/*
 * Whether dir (a real path) is too much to search for a struct's sources
 * (sf_path_too_broad, against the home directory's real path).  Two
 * unrelated trees under /tmp share only /tmp.
 */
static int broad_dir(const char *dir)
{
	const char *home = getenv("HOME");
	char real[PATH_MAX];

	return sf_path_too_broad(dir, home && realpath(home, real) ? real : NULL);
}

/*
 * A relative comp dir was relative to wherever the build ran, which the
 * DWARF does not say: taken from the input file's directory, or the
 * nearest directory above it that holds t's (relative) file - an object
 * written to build/ by a compiler run in the project's top directory.
 */
static void relative_root(const char *df, char *real)
{
	char d[PATH_MAX];
	size_t n = strlen(real);

	if (!df[0] || df[0] == '/' || !strncmp(df, "../", 3) || n >= sizeof(d))
		return;
	memcpy(d, real, n + 1);
	for (;;) {
		char *c = join(n ? d : "/", df);
		int found = is_file(c);
		free(c);
		if (found) {
			strcpy(real, n ? d : "/");
			return;
		}
		if (!n)
			return;     /* nowhere: the comp dir, where it is not found */
		while (n && d[n - 1] != '/')
			n--;
		d[n ? --n : 0] = '\0';
	}
}

/*
 * root->real from t's comp dir, when it is a directory here: itself, or
 * the directory it shares with t's file when that is elsewhere.  0, or 1
 * when there is none to take.
 */
static int comp_dir_root(const struct sf_type *t, struct sf_source_root *root)
{
	char real[PATH_MAX], df_real[PATH_MAX], common[PATH_MAX];
	struct strbuf dir = STRBUF_INIT;
	struct stat st;

	if (t->comp_dir[0] != '/') {
		origin_dir(t, &dir);
		sb_addch(&dir, '/');
	}
	sb_adds(&dir, t->comp_dir);
	int ok = realpath(dir.buf, real) && stat(real, &st) == 0 && S_ISDIR(st.st_mode);
	sb_release(&dir);
	if (!ok)
		return 1;
	root->from = t->comp_dir[0] == '/' ? SF_ROOT_COMP_DIR : SF_ROOT_COMP_DIR_REL;
	char *df = t->decl_file ? sf_path_normalize(t->decl_file) : sf_xstrdup("");
	if (root->from == SF_ROOT_COMP_DIR_REL)
		relative_root(df, real);
	if (df[0] == '/' && is_file(df) && realpath(df, df_real) &&
	    !sf_path_below(df_real, real)) {
		common_dir(real, df_real, common);
		if (!broad_dir(common)) {
			strcpy(real, common);
			root->from = SF_ROOT_COMMON;
		}
	}
	free(df);
	root->real = sf_xstrdup(real);
	return 0;
}

int sf_source_root(const struct sf_type *t, const char *root_opt,
		   struct sf_source_root *root, struct strbuf *err)
{
	char real[PATH_MAX];

	root->real = NULL;
	root->comp_dir = t->comp_dir ? t->comp_dir : "";
	if (root_opt) {
		root->from = SF_ROOT_OPTION;
		if (real_dir(root_opt, real, err))
			return -1;
		root->real = sf_xstrdup(real);
		return 0;
	}
	if (root->comp_dir[0] && !comp_dir_root(t, root))
		return 0;
	root->from = root->comp_dir[0] ? SF_ROOT_CWD_MISSING : SF_ROOT_CWD_NONE;
	if (real_dir(".", real, err))
		return -1;
	if (broad_dir(real)) {
		sb_addf(err, "struct %s: %s; the current directory is %s, too much to "
			"search: pass --source-root DIR", t->name, root->comp_dir[0] ?
			"the build's directory it records is not on this machine" :
			"its debug info records no build directory", real);
		return -1;
	}
	root->real = sf_xstrdup(real);
	return 0;
}

void sf_source_root_release(struct sf_source_root *root)
{
	free(root->real);
	root->real = NULL;
}

/* src: real, a real path below rootreal. */
static void take(const char *real, const char *rootreal, struct sf_source *src)
{
	src->path = sf_xstrdup(real);
	src->rel = sf_xstrdup(sf_path_below(real, rootreal));
}

/* Where decl_file df (normalised) is below rootreal, or NULL. */
static char *candidate(const char *df, const char *rootreal)
{
	char real[PATH_MAX];
	char *cand = NULL;

	if (df[0] != '/') {
		cand = join(rootreal, df);
		if (!is_file(cand)) {
			free(cand);
			cand = NULL;
		}
	} else if (is_file(df) && realpath(df, real) && sf_path_below(real, rootreal)) {
		cand = sf_xstrdup(real);
	}
	/* the build ran elsewhere: the longest tail found under the root */
	for (const char *s = df; !cand && (s = strchr(s, '/')); s++) {
		if (!s[1] || !strncmp(s + 1, "../", 3))
			continue;
		char *c = join(rootreal, s + 1);
		if (is_file(c))
			cand = c;
		else
			free(c);
	}
	return cand;
}

/*
 * df, a file outside the root: when the root is the comp dir, the
 * directory holding both was too much to search (broad_dir, in
 * comp_dir_root), which the message says.
 */
static void say_outside(const char *df, const struct sf_source_root *root,
			struct strbuf *err)
{
	const char *rootreal = root->real;
	char df_real[PATH_MAX], common[PATH_MAX];

	sb_addf(err, "%s: outside the source root %s", df, rootreal);
	if ((root->from == SF_ROOT_COMP_DIR || root->from == SF_ROOT_COMP_DIR_REL) &&
	    realpath(df, df_real)) {
		common_dir(rootreal, df_real, common);
		sb_addf(err, "; the directory holding both, %s, is too much to "
			"search: pass --source-root DIR", common);
		return;
	}
	sb_adds(err, "; pass --source-root DIR");
}

int sf_source_find(const struct sf_type *t, const struct sf_source_root *root,
		   struct sf_source *src, struct strbuf *err)
{
	const char *rootreal = root->real;
	char real[PATH_MAX];

	if (!t->decl_file || !t->decl_file[0]) {
		sb_addf(err, "struct %s: the DWARF names no source file for it", t->name);
		return -1;
	}
	char *df = sf_path_normalize(t->decl_file);
	char *cand = candidate(df, rootreal);
	int rc = -1;
	if (!cand) {
		if (df[0] == '/' && is_file(df) && root->from != SF_ROOT_OPTION)
			say_outside(df, root, err);
		else
			sb_addf(err, "%s: source file of struct %s not found (looked "
				"under %s)", df, t->name, rootreal);
	} else if (!realpath(cand, real)) {
		sb_addf(err, "%s: %s", cand, strerror(errno));
	} else if (!sf_path_below(real, rootreal)) {
		sb_addf(err, "%s: outside the source root %s; pass --source-root DIR",
			real, rootreal);
	} else {
		take(real, rootreal, src);
		rc = 0;
	}
	free(cand);
	free(df);
	return rc;
}

/* Rust: the .rs files below the source root (depth-limited, hidden dirs and
 * cargo's target/ skipped) that declare struct t; n counts them, the first kept. */
struct rs_scan {
	const struct sf_type *t;
	char *found;
	size_t n;
};

static int visit_rs(void *arg, const struct sf_walk_entry *e)
{
	struct rs_scan *rs = arg;
	size_t len = strlen(e->name);

	if (e->name[0] == '.' || !strcmp(e->name, "target"))
		return SF_WALK_SKIP;
	if (S_ISDIR(e->st.st_mode))
		return e->depth + 1 < MAX_DEPTH ? SF_WALK_DESCEND : SF_WALK_SKIP;
	if (!S_ISREG(e->st.st_mode) || len <= 3 || strcmp(e->name + len - 3, ".rs") ||
	    e->st.st_size >= (1 << 24))
		return SF_WALK_SKIP;
	struct strbuf sb = STRBUF_INIT;
	sf_read_file(e->path, &sb);
	if (sf_rustpatch_count(sb.buf, sb.len, rs->t->name) && !rs->n++)
		rs->found = sf_xstrdup(e->path);
	sb_release(&sb);
	return SF_WALK_SKIP;
}

int sf_source_find_rust(const struct sf_type *t, const struct sf_source_root *root,
			struct sf_source *src, struct strbuf *err)
{
	const char *rootreal = root->real;
	char real[PATH_MAX];
	struct rs_scan rs = { t, NULL, 0 };
	struct sf_walk w = { .visit = visit_rs, .arg = &rs };
	int rc = -1;

	sf_walk_dir(rootreal, &w);
	if (rs.n != 1)
		sb_addf(err, "struct %s: %s .rs file under %s declares it; pass "
			"--source-root DIR", t->name, rs.n ? "more than one" : "no", rootreal);
	else if (!realpath(rs.found, real) || !sf_path_below(real, rootreal))
		sb_addf(err, "%s: outside the source root %s", rs.found, rootreal);
	else {
		take(real, rootreal, src);
		rc = 0;
	}
	free(rs.found);
	return rc;
}

int sf_srctree_locate(const struct sf_type *t, const struct sf_source_root *root,
		      struct sf_srctree *tree, struct sf_source *src,
		      struct sf_srctruth *truth, struct strbuf *err)
{
	if (sf_source_find(t, root, src, err))
		return -1;
	sf_srctree_scan(root->real, t, src->rel, tree);
	sf_srcdefs_truth(tree->defs, tree->ndefs, src->rel, truth);
	return 0;
}

void sf_source_to_truth(struct sf_source *src, const struct sf_srctree *tree,
			const struct sf_srctruth *truth)
{
	if (truth->verdict != SF_TRUTH_FOUND || !strcmp(truth->truth->rel, src->rel))
		return;
	char *rel = sf_xstrdup(truth->truth->rel);
	sf_source_release(src);
	src->path = join(tree->root, rel);
	src->rel = rel;
}
