#!/bin/bash
# tests/e2e/html.sh - the HTML/SVG byte map (`show|holes|suggest --format html`)
# end to end, read back both from the page structfit wrote and from what a
# real browser (headless Chromium) made of it.
#
#  - st_table (testdata/example/st_table.c, gcc -g): one section, one box per
#    member at the offsets/sizes the compiler used, one 1-byte hole box at 3,
#    no padding box; the page is self-contained (no script, no network);
#  - Chromium's DOM (--dump-dom) holds the same boxes, so the browser parsed
#    the whole page as written; its screenshot is not blank and shows the
#    member colours and the hatched hole (set HTML_SCREENSHOT=FILE to keep
#    it; doc/st_table-map.png is made by doc/make-st_table-map.sh, with
#    relative paths);
#  - every type of testdata/e2e/layouts.c: boxes (members, bit-fields at bit
#    granularity, holes, bit holes, padding) agree with `show --format json`;
#  - --cacheline 32 gives two rows for st_table; `holes --format html` links
#    every ranked type to its map, in the order of `holes --format json`;
#    `suggest --format html` shows current and proposed side by side, and
#    carries what the text says (in the DOM Chromium built): a verdict (also
#    "nothing to change"), a row per proposal - reorder, each narrowing with
#    the range it holds, pairs - with its size class change ("class 80 ->
#    64"), all as the JSON says, and the text report less its hole maps;
#  - bad input writes no page and exits 2.
#
# Chromium is Debian's `chromium` (in TEST_PKGS): the browser cases are
# skipped, saying so, when /usr/bin/chromium is absent - failed under make
# test, which installs it (lib.sh missing).
. "$(dirname "$0")/lib.sh"

ST_SRC=$TD/example/st_table.c
LAYOUTS=$TD/e2e/layouts.c
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

# parse_page HTML OUT.json: what the page shows, as JSON (see the script):
#   {"sections": [{name, kind, size, id, cacheline, rows, members, holes,
#    nested_holes, bit_holes, padding, bit_padding, table_rows}],
#    "compares": [{name, current: {...}, proposed: {...}}],
#    "rank": [{name, href, waste}], "ids": [...], "scripts": N,
#    "external": [attribute values that would reach outside the page]}
cat >"$T/parse_page.py" <<'PYEOF'
import json, sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}

def num(v):
    return int(v) if v is not None else None

def new_map():
    return {"members": [], "holes": [], "nested_holes": [], "bit_holes": [],
            "padding": [], "bit_padding": [], "rows": [], "table_rows": 0,
            "table": [], "cacheline": None}

class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []          # (tag, classes, role) of open elements
        self.sections, self.compares, self.rank, self.ids = [], [], [], []
        self.scripts = 0
        self.external = []
        self.map = None          # the map boxes go to
        self.in_row_label = False
        self.rank_row = None
        self.box = None          # the box whose first <rect> gives x, y, width
        self.elided = None       # the elided strip's text goes to the map
        self.trow = None         # the table row being read

    def ctx(self, role):
        return any(r == role for _, _, r in self.stack)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        role = None
        if a.get("id"):
            self.ids.append(a["id"])
        if tag == "script":
            self.scripts += 1
        for k in ("src", "href", "xlink:href", "action"):
            v = a.get(k)
            if v is not None and not v.startswith("#"):
                self.external.append(v)
        if "url(" in (a.get("style") or "") or "@import" in (a.get("style") or ""):
            if "url(#" not in a["style"]:
                self.external.append(a["style"])
        if tag == "section" and "type" in cls:
            m = new_map()
            m.update(name=a.get("data-name"), kind=a.get("data-kind"),
                     size=num(a.get("data-size")), id=a.get("id"))
            self.sections.append(m)
            self.map = m
            role = "section"
        elif tag == "section" and "compare" in cls:
            self.compares.append({"name": a.get("data-name"),
                                  "size": num(a.get("data-size"))})
            role = "compare"
        elif tag == "div" and "layout" in cls and self.compares:
            side = "current" if "current" in cls else "proposed"
            m = new_map()
            self.compares[-1][side] = m
            self.map = m
            role = "side"
        elif tag == "svg" and "map" in cls and self.map is not None:
            self.map["cacheline"] = num(a.get("data-cacheline"))
        elif tag == "g" and self.map is not None:
            if "rows" in cls:
                role = "rows"
            elif "member" in cls:
                box = {"name": a.get("data-name"), "offset": num(a.get("data-offset")),
                       "size": num(a.get("data-size")), "type": a.get("data-type"),
                       "classes": cls}
                if a.get("data-bit-size") is not None:
                    box["bit_offset"] = num(a.get("data-bit-offset"))
                    box["bit_size"] = num(a.get("data-bit-size"))
                self.map["members"].append(box)
                self.box = box
            elif "hole" in cls or "padding" in cls:
                box = {"offset": num(a.get("data-offset")), "size": num(a.get("data-size"))}
                key = "nested_holes" if "nested" in cls else \
                      ("holes" if "hole" in cls else "padding")
                self.map[key].append(box)
                self.box = box
            elif "bit-hole" in cls or "bit-padding" in cls:
                box = {"offset": num(a.get("data-offset")),
                       "bit_offset": num(a.get("data-bit-offset")),
                       "bit_size": num(a.get("data-bit-size"))}
                key = "bit_holes" if "bit-hole" in cls else "bit_padding"
                if "nested" not in cls:
                    self.map[key].append(box)
        elif tag == "rect" and self.box is not None and "y" not in self.box:
            for k in ("x", "y", "width"):
                self.box[k] = float(a.get(k, "nan"))
        elif tag == "text" and self.ctx("rows"):
            self.in_row_label = True
        elif tag == "text" and "elided" in cls and self.map is not None:
            self.elided = []
            self.map.setdefault("elided", []).append(self.elided)
        elif tag == "tr" and self.map is not None and self.ctx("section" if
                not self.compares else "side") and cls and cls[0].startswith("t-"):
            self.map["table_rows"] += 1
            self.trow = {"class": " ".join(cls), "cells": []}
            self.map["table"].append(self.trow)
        elif tag == "td" and self.trow is not None:
            self.trow["cells"].append("")
        elif tag == "tr" and "rank-entry" in cls:
            self.rank_row = {"name": a.get("data-name"),
                             "waste": num(a.get("data-waste")), "href": None}
            self.rank.append(self.rank_row)
        elif tag == "a" and self.rank_row is not None and self.rank_row["href"] is None:
            self.rank_row["href"] = a.get("href")
        if tag not in VOID:
            self.stack.append((tag, cls, role))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        while self.stack:
            t, _, role = self.stack.pop()
            if role in ("section", "side"):
                self.map = None
            if t == "text":
                self.in_row_label = False
                if self.elided is not None:
                    self.map["elided"][-1] = "".join(self.elided)
                    self.elided = None
            if t == "g":
                self.box = None
            if t == "tr":
                self.rank_row = None
                self.trow = None
            if t == tag:
                break

    def handle_data(self, data):
        if self.in_row_label and self.map is not None and data.strip():
            self.map["rows"].append(int(data.strip()))
        if self.elided is not None:
            self.elided.append(data)
        if self.trow is not None and self.trow["cells"]:
            self.trow["cells"][-1] += data

p = Page()
p.feed(open(sys.argv[1], encoding="utf-8").read())
p.close()
json.dump({"sections": p.sections, "compares": p.compares, "rank": p.rank,
           "ids": p.ids, "scripts": p.scripts, "external": p.external},
          open(sys.argv[2], "w"), indent=1)
PYEOF

# png_stats PNG: "WIDTH HEIGHT DISTINCT_COLOURS NONWHITE_PERMILLE" then, per
# colour given as extra arguments (#rrggbb), how many pixels are within 12
# of it in every channel.  A plain PNG decoder (zlib + the five filters).
cat >"$T/png_stats.py" <<'PYEOF'
import struct, sys, zlib

def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("not a PNG")
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise SystemExit("unsupported PNG: depth %d colour type %d interlace %d"
                         % (depth, ctype, interlace))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + ((a + b) >> 1)) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pr) & 255
        rows.append(bytes(line)); prev = line
    return w, h, bpp, rows

w, h, bpp, rows = decode(sys.argv[1])
targets = [tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in sys.argv[2:]]
counts = [0] * len(targets)
colours, nonwhite = set(), 0
for line in rows:
    for x in range(0, w * bpp, bpp):
        px = (line[x], line[x + 1], line[x + 2])
        colours.add(px)
        if px != (255, 255, 255):
            nonwhite += 1
        for k, t in enumerate(targets):
            if abs(px[0] - t[0]) <= 12 and abs(px[1] - t[1]) <= 12 and abs(px[2] - t[2]) <= 12:
                counts[k] += 1
print(w, h, len(colours), nonwhite * 1000 // (w * h), *counts)
PYEOF

parse_page() { "$PY" "$T/parse_page.py" "$1" "$2"; }

# browser ARGS... URL: run headless Chromium with a private profile.
browser() {
	local prof
	prof=$(mktemp -d "$T/chromium.XXXXXX")
	HOME=$prof XDG_CONFIG_HOME=$prof XDG_CACHE_HOME=$prof \
		run "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$prof" "$@"
}

need_chromium() {
	if [ ! -x "$CHROMIUM" ]; then
		missing "headless Chromium ($CHROMIUM) is not installed (Debian package 'chromium')"
		return 1
	fi
	return 0
}

# ------------------------------------------------------------ st_table page

tcase "st_table page: self-contained, one box per member and per hole"
have_st=0
if compile_or_fail gcc x86_64 5 "$T/st.o" "$ST_SRC"; then
	sf_ok show --format html -t st_table "$T/st.o"
	cp "$T/out" "$T/page.html"
	assert_eq "$(wc -c <"$T/err")" 0 "stderr bytes"
	assert_eq "$(head -c 15 "$T/page.html")" "<!DOCTYPE html>" "doctype"
	assert_eq "$(tail -n 1 "$T/page.html")" "</html>" "last line"
	if parse_page "$T/page.html" "$T/page.json"; then
		have_st=1
		P=$T/page.json
		assert_eq "$(jget "$P" 'd["scripts"]')" 0 "script elements"
		assert_eq "$(jget "$P" 'd["external"]')" "[]" "references outside the page"
		assert_eq "$(jget "$P" '[(s["name"], s["kind"], s["size"]) for s in d["sections"]]')" \
			'[["st_table", "struct", 48]]' "sections"
		S='d["sections"][0]'
		assert_eq "$(jget "$P" "[(m['name'], m['offset'], m['size']) for m in ${S}['members']]")" \
			'[["entry_power", 0, 1], ["bin_power", 1, 1], ["size_ind", 2, 1], ["rebuilds_num", 4, 4], ["type", 8, 8], ["num_entries", 16, 8], ["entries_start", 24, 8], ["entries_bound", 32, 8], ["entries", 40, 8]]' \
			"member boxes (name, offset, size)"
		assert_eq "$(jget "$P" "${S}['members'][4]['type']")" "const struct st_hash_type *" "type of 'type'"
		assert_eq "$(jget "$P" "[(h['offset'], h['size']) for h in ${S}['holes']]")" '[[3, 1]]' "hole boxes"
		assert_eq "$(jget "$P" "${S}['padding'] + ${S}['bit_holes'] + ${S}['bit_padding'] + ${S}['nested_holes']")" \
			"[]" "padding and bit-hole boxes"
		assert_eq "$(jget "$P" "${S}['cacheline']")" 64 "cacheline"
		assert_eq "$(jget "$P" "${S}['rows']")" "[0]" "rows (offset labels)"
		assert_eq "$(jget "$P" "${S}['table_rows']")" 10 "table rows: 9 members + 1 hole"
		assert_eq "$(jget "$P" "${S}['id'] in d['ids'] and ${S}['id'].startswith('t-st_table-')")" \
			true "section anchor"
	else
		fail "the page does not parse"
	fi
fi

tcase "st_table in Chromium: the DOM it built has the same boxes (--dump-dom)"
if need_chromium && [ "$have_st" = 1 ]; then
	browser --dump-dom "file://$T/page.html"
	cp "$T/out" "$T/dom.html"
	if [ "$RC" != 0 ] || [ ! -s "$T/dom.html" ]; then
		fail "chromium --dump-dom exited $RC: $(grep -v -e dbus -e Fontconfig "$T/err" | head -n 3 | tr '\n' ' ')"
	elif parse_page "$T/dom.html" "$T/dom.json"; then
		for k in members holes padding bit_holes bit_padding rows cacheline table_rows; do
			assert_eq "$(jget "$T/dom.json" "d['sections'][0]['$k']")" \
				"$(jget "$T/page.json" "d['sections'][0]['$k']")" "DOM vs page: $k"
		done
		assert_eq "$(jget "$T/dom.json" 'len(d["sections"][0]["members"])')" 9 "member boxes in the DOM"
		assert_eq "$(jget "$T/dom.json" '[(h["offset"], h["size"]) for h in d["sections"][0]["holes"]]')" \
			'[[3, 1]]' "hole boxes in the DOM"
	else
		fail "Chromium's DOM does not parse"
	fi
fi

tcase "st_table in Chromium: the screenshot is not blank, shows member colours and the hatched hole"
if need_chromium && [ "$have_st" = 1 ]; then
	rm -f "$T/shot.png"
	browser --screenshot="$T/shot.png" --window-size=1200,900 --hide-scrollbars \
		"file://$T/page.html"
	if [ ! -s "$T/shot.png" ]; then
		fail "no screenshot (exit $RC): $(grep -v -e dbus -e Fontconfig "$T/err" | head -n 3 | tr '\n' ' ')"
	else
		# integer blue, pointer green, hole hatch red, hole hatch background
		# the two shades of integer blue and pointer green (members alternate
		# shades), the hole hatch's red stripes and pink ground
		read -r w h ncol nonwhite blue1 blue2 green1 green2 red pink < <("$PY" \
			"$T/png_stats.py" "$T/shot.png" "#9cc9f5" "#6fafee" "#a8dea0" "#80cc75" \
			"#d9483b" "#fde4e1") || fail "cannot decode the screenshot"
		blue=$((${blue1:-0} + ${blue2:-0}))
		green=$((${green1:-0} + ${green2:-0}))
		assert_eq "${w:-}x${h:-}" "1200x900" "screenshot size"
		[ "${ncol:-0}" -ge 50 ] || fail "only ${ncol:-0} distinct colours: a blank page?"
		[ "${nonwhite:-0}" -ge 20 ] || fail "only ${nonwhite:-0} per mille non-white pixels"
		[ "${blue:-0}" -ge 2000 ] || fail "integer members' blue: ${blue:-0} pixels"
		[ "${green:-0}" -ge 2000 ] || fail "pointer members' green: ${green:-0} pixels"
		[ "${red:-0}" -ge 20 ] || fail "hole hatch: ${red:-0} red pixels (pattern not painted?)"
		[ "${pink:-0}" -ge 20 ] || fail "hole hatch background: ${pink:-0} pixels"
		if [ -n "${HTML_SCREENSHOT:-}" ] && ! failed; then
			# for the documentation: the same page, cropped to its content
			browser --screenshot="$HTML_SCREENSHOT" --window-size=1200,450 \
				--hide-scrollbars "file://$T/page.html"
			[ -s "$HTML_SCREENSHOT" ] || fail "cannot save $HTML_SCREENSHOT"
		fi
	fi
fi

tcase "--cacheline 32: st_table in two rows of 32 bytes"
if [ "$have_st" = 1 ]; then
	sf_ok show --format html --cacheline 32 -t st_table "$T/st.o"
	cp "$T/out" "$T/cl32.html"
	if parse_page "$T/cl32.html" "$T/cl32.json"; then
		assert_eq "$(jget "$T/cl32.json" 'd["sections"][0]["cacheline"]')" 32 "cacheline"
		assert_eq "$(jget "$T/cl32.json" 'd["sections"][0]["rows"]')" "[0, 32]" "row offsets"
		NOS='[(m["name"], m["offset"], m["size"]) for m in d["sections"][0]["members"]]'
		assert_eq "$(jget "$T/cl32.json" "$NOS")" "$(jget "$T/page.json" "$NOS")" "members unchanged"
		# the second row starts with entries_bound (offset 32) at the left edge
		assert_eq "$(jget "$T/cl32.json" '[m["name"] for m in d["sections"][0]["members"] if m["x"] == d["sections"][0]["members"][0]["x"]]')" \
			'["entry_power", "entries_bound"]' "members at the start of a row"
	else
		fail "the page does not parse"
	fi
fi

# ------------------------------------------------------------ every layout

tcase "layouts.c: every type's boxes agree with show --format json"
if compile_or_fail gcc x86_64 5 "$T/layouts.o" "$LAYOUTS"; then
	sf_ok show --format html "$T/layouts.o"
	cp "$T/out" "$T/layouts.html"
	sf_ok show --format json "$T/layouts.o"
	cp "$T/out" "$T/layouts.json"
	if ! is_json "$T/layouts.json"; then
		fail "show --format json is not JSON"
	elif parse_page "$T/layouts.html" "$T/layouts.page.json"; then
		"$PY" - "$T/layouts.json" "$T/layouts.page.json" >"$T/cmp.txt" 2>&1 <<'PYEOF' ||
import json, sys
js = json.load(open(sys.argv[1]))["types"]
pg = json.load(open(sys.argv[2]))["sections"]
bad = []
def bare(n):
    for k in ("struct ", "union ", "class "):
        if n.startswith(k):
            return n[len(k):]
    return n
if len(js) != len(pg):
    bad.append("%d types in JSON, %d sections in the page" % (len(js), len(pg)))
seen_bits = False
for j, s in zip(js, pg):
    name = bare(j["name"])
    if (name, j["size"]) != (s["name"], s["size"]):
        bad.append("section %s/%s vs JSON %s/%s" % (s["name"], s["size"], name, j["size"]))
        continue
    jm = [(m["name"], m["offset"], m["size"], m.get("bit_offset") if m.get("bit_size") else None,
           m.get("bit_size") or None) for m in j["members"]]
    pm = [(m["name"], m["offset"], m["size"], m.get("bit_offset"), m.get("bit_size"))
          for m in s["members"]]
    if sorted(jm, key=repr) != sorted(pm, key=repr):
        bad.append("%s members: JSON %s, page %s" % (name, jm, pm))
    seen_bits |= any(m[4] for m in pm)
    # JSON may list the holes inside anonymous members with the outer ones
    jh = sorted((h["offset"], h["size"]) for h in j.get("holes", []))
    top = sorted((h["offset"], h["size"]) for h in s["holes"])
    ph = sorted((h["offset"], h["size"]) for h in s["holes"] + s["nested_holes"])
    if jh != top and jh != ph:
        bad.append("%s holes: JSON %s, page %s" % (name, jh, ph))
    jbh = len(j.get("bit_holes", []))
    if jbh != len(s["bit_holes"]):
        bad.append("%s bit holes: JSON %d, page %d" % (name, jbh, len(s["bit_holes"])))
    pad = j.get("padding", 0)
    ppad = [p["size"] for p in s["padding"]]
    if (pad and ppad != [pad]) or (not pad and ppad):
        bad.append("%s padding: JSON %s, page %s" % (name, pad, ppad))
    for p in s["padding"]:
        if p["offset"] + p["size"] != s["size"]:
            bad.append("%s padding box at %d+%d is not at the end" % (name, p["offset"], p["size"]))
    if s["rows"] and s["rows"][0] != 0:
        bad.append("%s first row at %s" % (name, s["rows"][0]))
if not seen_bits:
    bad.append("no bit-field box carries data-bit-size")
print("\n".join(bad) if bad else "ok")
sys.exit(1 if bad else 0)
PYEOF
		{ fail "page and JSON disagree"; detail "$T/cmp.txt"; }
		# struct bits: bit-fields a:3 b:5 c:1 share an unsigned int at 0
		assert_eq "$(jget "$T/layouts.page.json" '[(m["name"], m["bit_offset"], m["bit_size"]) for s in d["sections"] if s["name"] == "bits" for m in s["members"] if "bit_size" in m][:3]')" \
			'[["a", 0, 3], ["b", 3, 5], ["c", 8, 1]]' "bits: a, b, c at bit granularity"
		assert_eq "$(jget "$T/layouts.page.json" '[s["size"] for s in d["sections"] if s["name"] == "value"]')" \
			"[16]" "union value"
		# a union's members overlap: each in its own lane, all at x of offset 0
		assert_eq "$(jget "$T/layouts.page.json" '[len({m["y"] for m in s["members"]}) for s in d["sections"] if s["name"] == "value"]')" \
			"[3]" "union value: lanes"
		assert_eq "$(jget "$T/layouts.page.json" '[len({m["x"] for m in s["members"]}) for s in d["sections"] if s["name"] == "value"]')" \
			"[1]" "union value: members start together"
		assert_eq "$(jget "$T/layouts.page.json" '[len({m["y"] for m in s["members"]}) for s in d["sections"] if s["name"] == "mixed"]')" \
			"[1]" "struct mixed: one lane"
	else
		fail "the page does not parse"
	fi
fi

tcase "layouts.c in Chromium: the DOM has every box the page has"
if need_chromium && [ -s "$T/layouts.page.json" ]; then
	browser --dump-dom "file://$T/layouts.html"
	cp "$T/out" "$T/layouts.dom.html"
	if [ "$RC" != 0 ] || [ ! -s "$T/layouts.dom.html" ]; then
		fail "chromium --dump-dom exited $RC"
	elif parse_page "$T/layouts.dom.html" "$T/layouts.dom.json"; then
		assert_eq "$(jget "$T/layouts.dom.json" 'd["sections"]')" \
			"$(jget "$T/layouts.page.json" 'd["sections"]')" "sections and boxes"
	else
		fail "Chromium's DOM does not parse"
	fi
fi

# ------------------------------------------------------------ a big picture

# A struct that exercises the rest of the map: an array covering many whole
# cachelines (the rows between its first and last collapse into one strip),
# a hole inside an anonymous struct member (drawn over that member), a union
# member, a flexible array member and trailing padding.
cat >"$T/picture.c" <<'CEOF'
struct picture {
	char tag;                 /* 0 */
	char buf[1000];           /* 1 .. 1000: rows 1..14 are all buf */
	                          /* a 7-byte hole */
	struct {
		char a;           /* 1008, then a 7-byte hole inside */
		long b;           /* 1016 */
	};
	union { int i; double d; } u;   /* 1024, defined in place */
	int n;                    /* 1032 */
	int flex[];               /* 1036, then 4 bytes of padding: size 1040 */
};
struct picture *v_picture;
CEOF

tcase "big struct: whole rows of one array elided, nested hole, flexible array, padding"
if compile_or_fail gcc x86_64 5 "$T/picture.o" "$T/picture.c"; then
	sf_ok show --format html -t picture "$T/picture.o"
	cp "$T/out" "$T/picture.html"
	if parse_page "$T/picture.html" "$T/picture.json"; then
		S='d["sections"][0]'
		assert_eq "$(jget "$T/picture.json" "${S}['size']")" 1040 "size"
		assert_eq "$(jget "$T/picture.json" "[(m['name'], m['offset'], m['size']) for m in ${S}['members']]")" \
			'[["tag", 0, 1], ["buf", 1, 1000], ["", 1008, 16], ["u", 1024, 8], ["n", 1032, 4], ["flex", 1036, 0]]' \
			"member boxes"
		assert_eq "$(jget "$T/picture.json" "[(h['offset'], h['size']) for h in ${S}['holes']]")" \
			'[[1001, 7]]' "top-level hole"
		assert_eq "$(jget "$T/picture.json" "[(h['offset'], h['size']) for h in ${S}['nested_holes']]")" \
			'[[1009, 7]]' "hole inside the anonymous struct"
		assert_eq "$(jget "$T/picture.json" "[(p['offset'], p['size']) for p in ${S}['padding']]")" \
			'[[1036, 4]]' "padding box"
		# 17 rows of 64 bytes; buf covers rows 1..14 whole: 2..13 elided
		assert_eq "$(jget "$T/picture.json" "${S}['rows']")" "[0, 64, 896, 960, 1024]" "row offsets shown"
		assert_eq "$(jget "$T/picture.json" "${S}.get('elided')")" \
			'["\u22ee buf continues: 12 more cachelines (768 bytes) \u22ee"]' "elided strip"
		# members, gaps, and the members and gaps of types defined in place
		assert_eq "$(jget "$T/picture.json" "' '.join(r['cells'][0] + '/' + r['cells'][1] for r in ${S}['table'])")" \
			"0/1 1/1000 1001/7 1008/16 1008/1 1009/7 1016/8 1024/8 1024/4 1024/8 1032/4 1036/0 1036/4" \
			"table rows (offset/size)"
		assert_eq "$(jget "$T/picture.json" "[r['class'] for r in ${S}['table'] if 'nested' in r['class']]")" \
			'["t-member t-nested", "t-hole t-nested", "t-member t-nested", "t-member t-nested", "t-member t-nested"]' \
			"indented rows"
		# the flexible array is a thin marker, not a box of zero width
		assert_eq "$(jget "$T/picture.json" "[m['width'] for m in ${S}['members'] if m['name'] == 'flex']")" \
			"[3.0]" "flex marker width"
	else
		fail "the page does not parse"
	fi
fi

# ------------------------------------------------------------ holes, suggest

tcase "holes --format html: the ranking links every type to its map, in JSON's order"
if [ -f "$T/layouts.o" ]; then
	sf_ok holes --format html "$T/layouts.o" "$T/st.o"
	cp "$T/out" "$T/holes.html"
	sf_ok holes --format json "$T/layouts.o" "$T/st.o"
	cp "$T/out" "$T/holes.json"
	if parse_page "$T/holes.html" "$T/holes.page.json" && is_json "$T/holes.json"; then
		H=$T/holes.page.json
		assert_eq "$(jget "$H" '[r["name"] for r in d["rank"]]')" \
			"$(jget "$T/holes.json" '[bare(x["name"]) for x in d["types"]]')" "ranked names"
		assert_eq "$(jget "$H" '[r["waste"] for r in d["rank"]]')" \
			"$(jget "$T/holes.json" '[x["waste"] for x in d["types"]]')" "ranked waste"
		assert_eq "$(jget "$H" '[r["href"] for r in d["rank"] if r["href"][1:] not in [s["id"] for s in d["sections"]]]')" \
			"[]" "links without a map"
		assert_eq "$(jget "$H" '[r["href"][1:] for r in d["rank"]] == [s["id"] for s in d["sections"]]')" \
			true "maps in ranking order"
		assert_eq "$(jget "$H" 'len(d["ids"]) == len(set(d["ids"]))')" true "ids unique"
		assert_eq "$(jget "$H" '[[(h["offset"], h["size"]) for h in s["holes"]] for s in d["sections"] if s["name"] == "st_table"]')" \
			'[[[3, 1]]]' "st_table's map on the ranked page"
	else
		fail "the ranked page or the JSON does not parse"
	fi
fi

tcase "suggest --format html: current and proposed layouts side by side"
if [ "$have_st" = 1 ]; then
	sf suggest --format html -t st_table --narrow entries_start=1 "$T/st.o"
	if [ "$RC" = 2 ] && grep -q -e "not implemented" -e "format" "$T/err"; then
		skip "suggest has no --format html yet: $(head -n 1 "$T/err")"
	elif [ "$RC" != 0 ]; then
		fail "suggest --format html exited $RC: $(head -n 2 "$T/err" | tr '\n' ' ')"
	else
		cp "$T/out" "$T/suggest.html"
		if parse_page "$T/suggest.html" "$T/suggest.json"; then
			G=$T/suggest.json
			assert_ne "$(jget "$G" 'len(d["compares"])')" 0 "side-by-side sections"
			assert_eq "$(jget "$G" 'd["compares"][0]["current"]["members"] == '"$(jget "$T/page.json" 'd["sections"][0]["members"]')")" \
				true "current side is today's st_table"
			assert_eq "$(jget "$G" '[(m["offset"], m["size"]) for c in d["compares"] for m in c["proposed"]["members"] if m["name"] == "entries_start"][:1]')" \
				"[[3, 1]]" "entries_start narrowed into the hole"
			assert_eq "$(jget "$G" '[h for c in d["compares"] for h in c["proposed"]["holes"]][:1]')" \
				"[]" "no hole left"
		else
			fail "the page does not parse"
		fi
	fi
fi


# parse_report HTML OUT.json: the report part of a suggest page:
#   {"verdict": {"kind", "text"}, "rows": [{kind, rank, size, saved,
#    class_before, class_after, range, cells: [...]}], "report": PRE TEXT}
cat >"$T/parse_report.py" <<'PYEOF'
import json, sys
from html.parser import HTMLParser

class Report(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.verdict, self.rows, self.report = None, [], None
        self.where = None        # "verdict", "cell", "pre"
        self.text = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "p" and "verdict" in cls:
            self.verdict = {"kind": a.get("data-verdict"), "text": ""}
            self.where, self.text = "verdict", []
        elif tag == "tr" and "proposal" in cls:
            num = lambda k: int(a[k]) if a.get(k) is not None else None
            self.rows.append({"kind": a.get("data-kind"), "rank": num("data-rank"),
                              "size": num("data-size"), "saved": num("data-saved"),
                              "class_before": num("data-class-before"),
                              "class_after": num("data-class-after"),
                              "range": a.get("data-range"), "cells": []})
        elif tag == "td" and self.rows and self.where is None:
            self.where, self.text = "cell", []
        elif tag == "pre" and "report" in cls:
            self.where, self.text = "pre", []
    def handle_endtag(self, tag):
        if self.where == "verdict" and tag == "p":
            self.verdict["text"] = "".join(self.text)
        elif self.where == "cell" and tag == "td":
            self.rows[-1]["cells"].append("".join(self.text))
        elif self.where == "pre" and tag == "pre":
            self.report = "".join(self.text)
        else:
            return
        self.where = None
    def handle_data(self, data):
        if self.where:
            self.text.append(data)

p = Report()
p.feed(open(sys.argv[1], encoding="utf-8").read())
json.dump({"verdict": p.verdict, "rows": p.rows, "report": p.report}, open(sys.argv[2], "w"))
PYEOF
parse_report() { "$PY" "$T/parse_report.py" "$1" "$2"; }

# text_facts TEXT OUT: the lines of suggest's text output that are not a
# hole map (a map runs from "struct NAME {" to "};", with its caption line
# "... placed for the fewest moves:" before it), blank lines dropped.
text_facts() {
	awk '/placed for the fewest moves:$/ { next }
	     /^(struct|union|class) .*\{$/ { inmap = 1 }
	     inmap { if ($0 ~ /^}/) inmap = 0; next }
	     NF { print }' "$1" >"$2"
}

tcase "suggest --format html carries what the text says: class change, ranges, every proposal, verdict"
if [ "$have_st" = 1 ]; then
	args=(-t st_table --classes 64,80 --header 24 "$T/st.o")
	sf_ok suggest --format html "${args[@]}"
	cp "$T/out" "$T/sug.html"
	sf_ok suggest --format json "${args[@]}"
	cp "$T/out" "$T/sug.json"
	sf_ok suggest "${args[@]}"
	text_facts "$T/out" "$T/sug.facts"
	page=$T/sug.html
	# what the browser built, when there is one
	if [ -x "$CHROMIUM" ]; then
		browser --dump-dom "file://$T/sug.html"
		if [ "$RC" = 0 ] && [ -s "$T/out" ]; then
			cp "$T/out" "$T/sug.dom.html"
			page=$T/sug.dom.html
		else
			fail "chromium --dump-dom exited $RC"
		fi
	fi
	if parse_report "$page" "$T/sug.rep.json"; then
		R=$T/sug.rep.json
		assert_eq "$(jget "$R" 'd["verdict"]["kind"]')" change "verdict"
		want=$(jget "$T/sug.json" '"class %d -> %d" % (d["narrowings"][0]["class_before"], d["narrowings"][0]["class_after"])')
		assert_eq "$want" "class 80 -> 64" "JSON: the best narrowing takes the header + struct from class 80 to 64"
		assert_match "$(jget "$R" 'd["verdict"]["text"]')" "$want" "the verdict says the class change"
		assert_match "$(jget "$R" 'd["verdict"]["text"]')" "holds 0\.\.255" "the verdict says the range"
		assert_eq "$(jget "$R" '[r["kind"] for r in d["rows"]]')" \
			"$(jget "$T/sug.json" '["narrowing"] * len(d["narrowings"]) + ["pair"] * len(d["pairs"])')" \
			"one row per proposal (JSON lists them all)"
		assert_eq "$(jget "$R" '[[r["range"], r["size"], r["saved"], r["class_before"], r["class_after"]] for r in d["rows"]]')" \
			"$(jget "$T/sug.json" '[[n["range"], n["size"], n["saved"], n["class_before"], n["class_after"]] for n in d["narrowings"]]')" \
			"each row: range held, size, bytes saved, classes (as JSON says)"
		assert_eq "$(jget "$R" '[r["cells"][5] for r in d["rows"]][:1]')" "[\"$want\"]" "the class column, as the text writes it"
		assert_eq "$(jget "$R" '[r["cells"][2] for r in d["rows"]]')" \
			"$(jget "$T/sug.json" '[n["range"] for n in d["narrowings"]]')" "the holds column"
		jget "$R" 'd["report"]' | awk 'NF' >"$T/sug.pre"
		assert_eq "$(cat "$T/sug.pre")" "$(cat "$T/sug.facts")" "the page's report is the text less its maps"
		assert_grep "$T/sug.facts" "class 80 -> 64" "(the text says class 80 -> 64)"
		assert_grep "$T/sug.facts" "holds 0..255" "(the text says the range)"
	else
		fail "the report part of the page does not parse"
	fi
fi

tcase "suggest --format html: a reorder row, pairs, and the verdict when there is nothing to change"
if compile_or_fail gcc x86_64 5 "$T/sl.o" "$TD/suggest/layouts.c"; then
	# three: no order is smaller and no single narrowing helps: nothing to change
	sf_ok suggest --format html -t three "$T/sl.o"
	cp "$T/out" "$T/three.html"
	sf_ok suggest -t three "$T/sl.o"
	text_facts "$T/out" "$T/three.facts"
	if parse_report "$T/three.html" "$T/three.json"; then
		assert_eq "$(jget "$T/three.json" 'd["verdict"]["kind"]')" nothing "verdict kind"
		assert_match "$(jget "$T/three.json" 'd["verdict"]["text"]')" "^Nothing to change" "verdict text"
		assert_eq "$(jget "$T/three.json" 'd["rows"]')" "[]" "no proposal rows"
		jget "$T/three.json" 'd["report"]' | awk 'NF' >"$T/three.pre"
		assert_eq "$(cat "$T/three.pre")" "$(cat "$T/three.facts")" "report is the text"
	else
		fail "the page does not parse"
	fi
	# with classes 8,12 a pair of narrowings reaches a smaller class
	sf_ok suggest --format json -t three --classes 8,12 "$T/sl.o"
	cp "$T/out" "$T/pairs.json"
	sf_ok suggest --format html -t three --classes 8,12 "$T/sl.o"
	cp "$T/out" "$T/pairs.html"
	if parse_report "$T/pairs.html" "$T/pairs.rep.json"; then
		assert_ne "$(jget "$T/pairs.json" 'len(d["pairs"])')" 0 "(JSON has pairs)"
		assert_eq "$(jget "$T/pairs.rep.json" '[[r["range"], r["size"], r["class_after"]] for r in d["rows"] if r["kind"] == "pair"]')" \
			"$(jget "$T/pairs.json" '[[";".join(x["range"] for x in p["narrow"]), p["size"], p["class_after"]] for p in d["pairs"]]')" \
			"pair rows: both ranges, size, class"
	else
		fail "the page does not parse"
	fi
	# padded: a reorder that saves bytes comes first
	sf_ok suggest --format json -t padded "$T/sl.o"
	cp "$T/out" "$T/padded.json"
	sf_ok suggest --format html -t padded "$T/sl.o"
	cp "$T/out" "$T/padded.html"
	if parse_report "$T/padded.html" "$T/padded.rep.json"; then
		assert_eq "$(jget "$T/padded.rep.json" '[[r["kind"], r["size"], r["cells"][6]] for r in d["rows"]][:1]')" \
			"$(jget "$T/padded.json" '[["reorder", d["reorder"]["size"], str(d["reorder"]["moves"])]]')" \
			"the reorder row: size and moves as JSON says"
		assert_eq "$(jget "$T/padded.rep.json" 'd["verdict"]["kind"]')" change "verdict"
	else
		fail "the page does not parse"
	fi
fi

# ------------------------------------------------------------ bad input

tcase "bad input: not an ELF file, exit 2, one line, no page"
printf 'not an object\n' >"$T/junk.o"
assert_exit 2 "show --format html junk" "$SF" show --format html "$T/junk.o"
assert_eq "$(wc -c <"$T/out")" 0 "stdout bytes"
assert_eq "$(wc -l <"$T/err")" 1 "stderr lines"
assert_match "$(cat "$T/err")" "^structfit: .*junk\.o" "message names the file"

tdone
