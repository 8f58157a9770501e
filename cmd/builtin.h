/*
 * builtin.h - the subcommands, one file each, dispatched from cmd/main.c.
 *
 * Each cmd_NAME(argc, argv) gets argv[0] == "NAME", parses its options with
 * getopt_long and returns the process exit status: 0 success, 1 a finding
 * the user asked to fail on, 2 a usage error or unusable input.
 */
#ifndef SF_BUILTIN_H
#define SF_BUILTIN_H

int cmd_show(int argc, char **argv);
int cmd_holes(int argc, char **argv);
int cmd_suggest(int argc, char **argv);
int cmd_fit(int argc, char **argv);
int cmd_classes(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_patch(int argc, char **argv);

#endif
