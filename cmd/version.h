/* version.h - the one place the version number lives. */
#define SF_VERSION "0.1.0"
