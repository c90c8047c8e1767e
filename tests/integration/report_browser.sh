#!/usr/bin/env bash
# The nightly's HTML report, as a person sees it: headless Chromium loads
# it, every figure decodes (naturalWidth > 0), the verdict table and the
# regression are on the page, and the screenshot is not blank. The suite
# profiles: each flame graph, and the differential one against the
# baseline, loads as an SVG document with its boxes. The trend page the
# night links loads with its figures.
. "$(dirname "$0")/../lib.sh"
browser=$(command -v chromium || command -v chromium-browser) || fail "no chromium (scripts/deps.sh installs it)"
db=$tmp/r/rmapbench.db
mkdir -p "$tmp/r"
printf 'name = tiny\nworkloads = aim7\nusers = 1 2\nrepetitions = 2\njobs_per_user = 2\nshared_mib = 1\nseed = %s\ncollectors = cpu profile\nprofile = 1\nengine_children = 5 20\nengine_pages = 4\n' \
	"$marker" >"$tmp/tiny.conf"
"$BIN" --db "$db" nightly --config "$tmp/tiny.conf" >/dev/null 2>&1 || fail "the first night"
"$BIN" --db "$db" nightly --config "$tmp/tiny.conf" --set variant=legacy >"$tmp/out" 2>&1
report=$(sed -n 's/^report: //p' "$tmp/out" | tail -n 1)
[[ -s $report ]] || fail "the nightly names no report: $(tail -n 3 "$tmp/out")"
# A copy of the page that, once loaded, writes what it sees into its title.
probe=$(dirname "$report")/probe.html
cat "$report" - >"$probe" <<'JS'
<script>
window.addEventListener("load", function () {
	var imgs = document.images, ok = 0, flames = 0, boxes = 0;
	for (var i = 0; i < imgs.length; i++)
		if (imgs[i].complete && imgs[i].naturalWidth > 0)
			ok++;
	var objs = document.getElementsByTagName("object");
	for (var i = 0; i < objs.length; i++) {
		var d = objs[i].contentDocument;
		if (/flame/.test(objs[i].data) && d && d.getElementsByTagName("rect").length > 1) {
			flames++;
			boxes += d.getElementsByTagName("rect").length;
		}
	}
	document.title = "figures " + ok + "/" + imgs.length + " text " + document.body.innerText.length +
		" flames " + flames + " boxes " + boxes;
});
</script>
JS
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
	--allow-file-access-from-files
	--disable-component-update --disable-sync --user-data-dir="$tmp/profile" --virtual-time-budget=5000)
timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$probe" >"$tmp/dom" 2>"$tmp/chromium.log" ||
	fail "chromium failed: $(tail -n 5 "$tmp/chromium.log")"
title=$(sed -n 's:.*<title>\(.*\)</title>.*:\1:p' "$tmp/dom" | head -n 1)
[[ $title =~ ^figures\ ([0-9]+)/([0-9]+)\ text\ ([0-9]+)\ flames\ ([0-9]+)\ boxes\ ([0-9]+)$ ]] ||
	fail "the page did not report itself: '$title'"
flames=${BASH_REMATCH[4]}
[[ ${BASH_REMATCH[2]} -ge 5 && ${BASH_REMATCH[1]} == "${BASH_REMATCH[2]}" ]] ||
	fail "figures that did not load: $title"
((BASH_REMATCH[3] > 500)) || fail "the page is nearly empty: $title"
grep -q "Verdicts: " "$tmp/dom" || fail "no verdict table on the page"
grep -q "Where the time moved" "$tmp/dom" || fail "no differential flame graph section"
grep -q "Where the time went" "$tmp/dom" || fail "no flame graph section"
# a flame graph for each of aim7 at 1 and 2 users, and a differential one of each
((flames >= 4)) || fail "flame graphs that did not load as SVG with boxes: $title"
grep -q 'id="trend"' "$tmp/dom" || fail "the report does not link the trend page"
grep -q 'class="bad"' "$tmp/dom" || fail "the regression is not marked"
timeout 120 "$browser" "${flags[@]}" --window-size=1100,1400 --screenshot="$tmp/shot.png" "file://$report" \
	>/dev/null 2>&1 || fail "no screenshot"
python3 - "$tmp/shot.png" <<'PY' || fail "the screenshot is blank"
import sys, zlib, struct
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
# distinct byte values in the decompressed image: a blank page has a handful
idat, pos = b"", 8
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IDAT":
        idat += data[pos + 8:pos + 8 + length]
    pos += 12 + length
assert len(set(zlib.decompress(idat))) > 16
PY
# the trend page the report links: its small multiples load as SVG documents
trend=$tmp/r/trend-tiny/trend.html
[[ -s $trend ]] || fail "no trend page at $trend"
cat "$trend" - >"$tmp/r/trend-tiny/probe.html" <<'JS'
<script>
window.addEventListener("load", function () {
	var objs = document.getElementsByTagName("object"), ok = 0;
	for (var i = 0; i < objs.length; i++)
		if (objs[i].contentDocument && objs[i].contentDocument.getElementsByTagName("path").length > 0)
			ok++;
	document.title = "trend " + ok + "/" + objs.length;
});
</script>
JS
timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$tmp/r/trend-tiny/probe.html" >"$tmp/tdom" 2>>"$tmp/chromium.log" ||
	fail "chromium failed on the trend page"
ttitle=$(sed -n 's:.*<title>\(.*\)</title>.*:\1:p' "$tmp/tdom" | head -n 1)
[[ $ttitle =~ ^trend\ ([0-9]+)/([0-9]+)$ && ${BASH_REMATCH[2]} -ge 1 && ${BASH_REMATCH[1]} == "${BASH_REMATCH[2]}" ]] ||
	fail "trend figures that did not load: '$ttitle'"
echo "the nightly's report in Chromium: $title, regression marked, not blank; trend page: $ttitle"
