// A C++ library whose .debug_str the linker merges, names into the tails
// of mangled names (dwarf/strpack.h; tests/e2e/elf.sh).  In the section:
//   "_Z12apply_valuesRK13ConfigValuesX"  ConfigValuesX is its tail, behind
//                                        its length: a pack keeps it
//   "_Z14release_to_strv"                strv: within the last 8 bytes
//   "_Z13get_long_namev"                 long_namev (-DWITH_MISS): no name
//                                        behind its length, longer than 8
//                                        bytes - the section is read whole
namespace ceph {
struct ConfigValues {
	long values[4];
	char flag;
};
struct holder {
#ifdef WITH_MISS
	int long_namev;
#endif
	char tag;
	long config;
	short strv;
};
}
struct ConfigValuesX {
	char a;
	double b;
	char c;
};
int use_values(const ceph::ConfigValues &v) { return (int)v.values[0] + v.flag; }
int apply_values(const ConfigValuesX &v) { return v.a + v.c; }
void get_long_name() {}
void release_to_str() {}
int use_holder(ceph::holder *h) { return h->tag + h->strv; }
