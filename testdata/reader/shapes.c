/*
 * Member shapes and their C spellings: multi-dimensional and flexible
 * arrays, anonymous and unnamed-type members (shown nested, with absolute
 * offsets), typedef and cv chains, pointers to functions and arrays, and
 * a typedef'd anonymous struct (reported under the typedef's name).
 */
typedef struct {
	int a;
	char b;
} anon_pair_t;

typedef const char *cstr_t;
typedef cstr_t name_t;

struct shapes {
	int matrix[3][4];
	struct {
		char tag;
		long value;
	} inner;
	union {
		int i;
		float f;
	};
	const volatile unsigned short cvs;
	name_t name;
	void (*callback)(int, const char *);
	int (*table)[4];
	char *const fixed;
	anon_pair_t pair;
	struct {
		short x;
	} pts[2];
	_Bool flag;
	char tail[];
};

struct zero_len {
	int n;
	char data[0];
};

struct shapes *shapes_example;
struct zero_len zero_len_example;
anon_pair_t anon_pair_example;
