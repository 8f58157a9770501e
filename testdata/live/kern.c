/*
 * kern.c - structs named as the Linux kernel names the structs of its slab
 * caches, for tests/e2e/live.sh: each slab-matching rule has one (dentry
 * and buffer_head by name, foo_cachep -> foo, bar_cache -> bar,
 * ext4_inode_cache -> ext4_inode_info past the on-disk ext4_inode its
 * name also fits, filp -> file by --slab-map), two are rejected by the
 * object size of their cache (big: too small; small: too large), and
 * bts_ctx wastes the most bytes per instance but has no cache.
 */
struct dentry { void *d_parent; int d_flags; long d_time; char d_iname; };  /* 32: waste 11 */
struct buffer_head { char b_state; long b_blocknr; };                     /* 16: waste 7 */
struct foo { long a; char b; };                                             /* 16: waste 7 */
struct bar { int a; long b; };                                              /* 16: waste 4 */
struct ext4_inode { int i_data[40]; };                                      /* 160: waste 0 */
struct ext4_inode_info { long i_data[139]; char i_flags; };                 /* 1120: waste 7 */
struct file { int f_flags; long f_pos; };                                   /* 16: waste 4 */
struct big { long a[10]; char c; };                                         /* 88: waste 7 */
struct small { char c; long a; };                                           /* 16: waste 7 */
struct bts_ctx { char a; long b[100]; char c; };                            /* 816: waste 14 */

struct dentry d;
struct buffer_head bh;
struct foo f;
struct bar b;
struct ext4_inode ei;
struct ext4_inode_info eii;
struct file fl;
struct big bg;
struct small sm;
struct bts_ctx bc;
