// bits.h - a struct with a bit-field run (one storage unit, moved whole).
#ifndef BITS_H
#define BITS_H

struct Flags {
    char a;
    double d;
    char b;
    unsigned kind : 3, mode : 5;
    long l;
    char c;
};

#endif
