#!/bin/sh
# Install the Debian packages named on the command line that are missing.
# As root: apt-get update (once) and apt-get install.  Otherwise print the
# one apt-get line to run and fail, so `make` stops with a clear message.
missing=""
for p in "$@"; do
	case "$p" in
	gcc-multilib) [ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ] || continue ;;
	# NodeSource's nodejs ships npm itself; Debian's needs the npm package
	npm) command -v npm >/dev/null 2>&1 && continue ;;
	esac
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "structfit: missing Debian packages; run:" >&2
	echo "  sudo apt-get install$missing" >&2
	exit 1
fi
echo "structfit: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
	{ echo "structfit: apt-get install$missing failed" >&2; exit 1; }
