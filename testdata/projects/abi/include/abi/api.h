/* The library's public API: programs compile against this header, so
 * api_opts' layout is part of the ABI (the holes stay). */
#ifndef ABI_API_H
#define ABI_API_H

struct api_opts {
	char verbose;
	long timeout;
	char retries;
};

#endif
