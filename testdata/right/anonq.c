/* A qualified anonymous struct member (the kernel's vm_fault: `const
 * struct { ... };`) and a flexible array of const elements (struct
 * filename's `const char iname[]`). */
struct anonq {
	const struct {
		void *vma;
		int gfp_mask;
		long pgoff;
	};
	int flags;
	const char iname[];
};
struct anonq *anonq_p;
unsigned long anonq_size(void) { return sizeof(struct anonq); }
