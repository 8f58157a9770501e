# tests/realworld/lib.sh - what the `make realworld` scripts share, sourced
# by each (redis.sh, tinyxml2.sh) after it sets DIR (its work directory),
# SF (structfit) and RW_NAME (its name in the lines it prints):
#
#   say / die       one line "realworld: RW_NAME: ..." ("realworld: ..."
#                   when RW_NAME is not set; die: FAILED, exit 1)
#   rw_setup CMD..  the directories under DIR, and each command needed
#   rw_source PKG   Debian's source package PKG, fetched once into DIR/dl
#                   through a private sources list (deb-src lines for this
#                   release and its security suite, own lists and cache
#                   directories: the system's apt configuration is left
#                   alone), unpacked afresh into DIR/src; the current
#                   directory becomes DIR/src
#   json_get F E    the value of Python expression E over JSON file F (d)
#   pahole_size F T the size pahole gives class or struct T (its last
#                   name) in file F: its own summary, not a nested one
#
# LOG is DIR/log, where every step writes its output.

LOG=$DIR/log

say() { echo "realworld: ${RW_NAME:+$RW_NAME: }$*"; }
die() { say "FAILED: $*"; exit 1; }

rw_setup() { # COMMAND...
	mkdir -p "$DIR/apt/lists/partial" "$DIR/apt/cache/archives/partial" "$DIR/dl" "$LOG" ||
		die "cannot create $DIR"
	[ -x "$SF" ] || die "$SF is not built (make structfit)"
	for c in apt-get dpkg-source pahole python3 "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "$c is missing (make realworld installs what the scripts need)"
	done
}

rw_source() { # PACKAGE
	suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[ -n "$suite" ] || die "no VERSION_CODENAME in /etc/os-release"
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	cat >"$DIR/apt/sources.list" <<EOT
deb-src [signed-by=$key] http://deb.debian.org/debian $suite main
deb-src [signed-by=$key] http://deb.debian.org/debian-security $suite-security main
EOT
	APT="-o Dir::Etc::SourceList=$DIR/apt/sources.list -o Dir::Etc::SourceParts=/dev/null
	     -o Dir::State::Lists=$DIR/apt/lists -o Dir::Cache=$DIR/apt/cache -o Debug::NoLocking=1
	     -o APT::Sandbox::User=root"
	if ! ls "$DIR/dl/$1"_*.dsc >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		apt-get $APT update >"$LOG/apt-update.txt" 2>&1 || die "apt-get update (see $LOG/apt-update.txt)"
		# shellcheck disable=SC2086
		(cd "$DIR/dl" && apt-get $APT --download-only source "$1") >"$LOG/apt-source.txt" 2>&1 ||
			die "apt-get source $1 (see $LOG/apt-source.txt)"
	fi
	dsc=$(ls "$DIR/dl/$1"_*.dsc | tail -n 1)
	rm -rf "$DIR/src"
	dpkg-source -x "$dsc" "$DIR/src" >"$LOG/dpkg-source.txt" 2>&1 || die "dpkg-source -x $dsc"
	say "source: $(basename "$dsc" .dsc) (Debian $suite)"
	cd "$DIR/src" || die "no $DIR/src"
}

json_get() { # FILE EXPR
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

pahole_size() { # FILE TYPE
	pahole -C "${2##*::}" "$1" 2>/dev/null | sed -n 's/^\t\/\* size: \([0-9]*\),.*/\1/p' | head -n 1
}
