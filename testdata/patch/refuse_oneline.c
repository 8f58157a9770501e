/* refuse_oneline.c - a struct on one line with other code: refused. */
struct pt { char tag; long x; char kind; } example_pt;
