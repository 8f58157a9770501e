/* rec.h - a record, as client code sees it. */
#ifndef REC_H
#define REC_H

struct rec {
	char kind;
	long key;
	char live;
};

#endif
