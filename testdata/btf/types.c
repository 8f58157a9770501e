/*
 * What BTF must carry as DWARF does: bit-fields across storage units,
 * packed structs (and a packed struct held at an odd offset), anonymous
 * nested structs and unions, typedef'd anonymous structs, a 64-bit enum,
 * function pointers, qualifiers, flexible arrays, pointers to anonymous
 * types.  tests/e2e/btf.sh encodes this object's DWARF as BTF with
 * `pahole -J` and compares structfit's reading of both, and pahole's.
 */
#include <stdint.h>

enum big { BIG_LOW = 1, BIG_HIGH = 0x100000000ULL };
enum small_enum { SMALL_A, SMALL_B, SMALL_C };

typedef struct {
	uint16_t port;
	uint64_t addr;
	uint8_t proto;
} endpoint_t;

typedef unsigned long word_t;

struct flags {
	unsigned int ready : 1;
	unsigned int mode : 3;
	signed int delta : 5;
	enum small_enum kind : 2;
	unsigned long long wide : 40;
	unsigned char tail : 4;
	uint16_t after;
};

struct __attribute__((packed)) wire {
	uint8_t type;
	uint32_t len;
	uint16_t csum;
};

struct holds_wire {
	char tag;
	struct wire w;
	int count;
};

struct nested {
	int id;
	union {
		uint32_t u32;
		float f;
		struct {
			uint16_t lo;
			uint16_t hi;
		};
	};
	struct {
		char c;
		double d;
	} pair;
	struct {
		int x, y;
	} *where;
	enum big size_class;
	endpoint_t ep;
};

struct callbacks {
	int (*open)(const char *path, int flags);
	void (*close)(void *);
	const volatile word_t *counter;
	char *const *argv;
	void *(*alloc)(unsigned long n, ...);
	struct callbacks *next;
};

struct message {
	uint32_t len;
	uint8_t kind;
	char payload[];
};

struct bad_order {
	char a;
	uint64_t b;
	char c;
	uint32_t d;
	char e;
	void *f;
};

endpoint_t btf_ep;
struct flags btf_flags;
struct holds_wire btf_hw;
struct nested btf_nested;
struct callbacks btf_cb;
struct message *btf_msg;
struct bad_order btf_bo;
