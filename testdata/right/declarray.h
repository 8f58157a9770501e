// declarray.h - an array of a class only declared where it is used
// (issue 27, item 2: HotSpot's ShenandoahPhaseTimings::_global_data,
// HdrSeq[316]).  Seq's key function (its virtual destructor) is defined
// in declarray_b.cpp only, so g++ and clang++ write Seq's definition
// into that unit's DWARF and only a declaration into declarray_a.cpp's,
// where Phases holds 316 of them: the array's size is known only once
// the definition is found in the other unit - 316 elements of it, not
// one.  alignas makes g++ put DW_AT_alignment on the array type.
struct alignas(16) Seq {
	virtual ~Seq();
	double d[9];
};

struct Phases {
	int q;
	Seq global_data[316];
	int z;
};

Phases *make_phases();
