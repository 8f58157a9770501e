// agg.h - an aggregate initialized by position in main.cc: a reorder
// changes what {..., ...} means, so patch refuses it.
#ifndef AGG_H
#define AGG_H

struct Point {
    char tag;
    double x;
    char kind;
    int y;
};

#endif
