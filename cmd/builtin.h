/*
 * builtin.h - the subcommands, one file each, dispatched from cmd/main.c.
 *
 * Each cmd_NAME(argc, argv) gets argv[0] == "NAME", parses its options with
 * getopt_long and returns the process exit status: 0 success, 1 a finding
 * the user asked to fail on, 2 a usage error or unusable input.
 *
 * cmd/ holds options and wiring only: it reads the inputs (dwarf/), asks
 * layout/ for every number and decision and report/ for every byte of
 * output, and prints errors the one way ("structfit: FILE: problem").
 *   main.c       the table of commands below, dispatch, the final flush
 *   common.c     what every command shares: the one option table and the
 *                options that mean the same everywhere (sf_getopt_next),
 *                loading inputs, finding types, the error line and the
 *                error document of a machine --format
 *   usage.c      each command's --help, made from the option table and
 *                the command's option list (struct sf_command)
 *   NAME.c       one file per command: show, holes, suggest, fit,
 *                classes, check, diff, patch, pahole (pahole's own
 *                options and output)
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
int cmd_pahole(int argc, char **argv);

#endif
