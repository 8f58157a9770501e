/* A header another package installs under its PREFIX/include: the test
 * installs it into a temp prefix and builds with -I PREFIX/include. */
#ifndef INST_H
#define INST_H

struct inst_cfg {
	char on;
	double ratio;
	char level;
};

#endif
