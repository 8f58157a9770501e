/* An empty class given a size by alignas (HotSpot's StackObj: 4 bytes,
 * aligned 4, no members) takes no room as a base: the first member of a
 * class derived from it may sit at its offset 0. */
struct alignas(4) StackObjLike {};
struct OverBase : StackObjLike { int values[8]; };
struct AfterBase : StackObjLike { long handle; int bci; bool wide; };
