#!/bin/bash
# SPDX-License-Identifier: MIT
# stormark meta (docs/meta.md): every phase counts every file, the rates
# are the counts over the spans, bytes written and probed are the files';
# the run works in a directory of its own and leaves DIR as it was (a
# file and a symlink named like its files untouched); bad inputs are one
# line and exit 2 before anything is made; a full disk and a signal give
# a partial report and remove the run's files; report re-renders every
# layout byte for byte.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
D=$T_DIR/d
mkdir "$D"
# a stranger's files named like the run's, and a symlink to one outside
echo keep >"$D/frame000000.tst"
echo outside >"$T_DIR/outside"
ln -s "$T_DIR/outside" "$D/frame000001.tst"
# DIR's entries (its own mtime changes: the run makes and removes its directory)
listing() { (cd "$D" && find . -mindepth 1 -printf '%p %y %s %T@\n' | LC_ALL=C sort); }
before=$(listing)

# ---- a complete run: 300 files of 5000 bytes, 2 threads ----
expect_rc 0 "meta -n 300 --size 5000 -t 2" "$S" meta -n 300 --size 5000 -t 2 --json="$T_DIR/a.json" \
  -o "$T_DIR/a.txt" "$D"
check "DIR as it was (the stranger's file and symlink too)" test "$(listing)" = "$before"
check "the symlink's target untouched" test "$(cat "$T_DIR/outside")" = outside
J=$T_DIR/a.json
for p in create stat probe list delete; do
  check "$p counts every file" test "$(json "$J" "d['meta']['ops']['$p']['count']")" = 300
  check "$p: no error" test "$(json "$J" "d['meta']['ops']['$p']['errors']")" = 0
  check "$p: its latency counts every file" test "$(json "$J" "d['meta']['ops']['$p']['lat_ns']['histogram']['counts'] and sum(c for _, c in d['meta']['ops']['$p']['lat_ns']['histogram']['counts'])")" = 300
  c=$(json "$J" "d['meta']['ops']['$p']['count']")
  ns=$(json "$J" "d['meta']['ops']['$p']['duration_ns']")
  r=$(json "$J" "d['meta']['ops']['$p']['per_s']")
  check "$p: per_s is count / duration ($r)" approx "$r" "$(awk -v c="$c" -v n="$ns" 'BEGIN { printf "%.17g", c / (n / 1e9) }')" 1e-9
  check "$p: a line in the text layout" grep -Eq "^$p +300 +0 " "$T_DIR/a.txt"
done
check "create wrote 300 x 5000 bytes" test "$(json "$J" "d['meta']['ops']['create']['bytes']")" = 1500000
check "probe read 300 x 4096 bytes" test "$(json "$J" "d['meta']['ops']['probe']['bytes']")" = 1228800
check "params" test "$(json "$J" "[d['params'][k] for k in ('files','threads','size_bytes','probe_bytes')]")" = "[300, 2, 5000, 4096]"
check "created 300, cleaned" test "$(json "$J" "(d['meta']['created'], d['meta']['cleaned'])")" = "(300, True)"
check "its directory was DIR/.stormark-meta-XXXXXX" \
  test "$(json "$J" "d['meta']['data_dir'].startswith(d['params']['dir'] + '/.stormark-meta-') and len(d['meta']['data_dir']) == len(d['params']['dir']) + 22")" = True
# (the text's sentences wrap at 79 columns: read them with their lines joined)
joined() { tr '\n' ' ' <"$1" | tr -s ' '; }
check "the sequence line" sh -c "grep -q '^a sequence of 100000 frames here: listed in ' '$T_DIR/a.txt' &&
  { $(declare -f joined); joined '$T_DIR/a.txt'; } | grep -q 'listed in [^,]*, every frame stat.ed and its header read in '"
check "the cleanup line" grep -q '^300 files created, all removed' "$T_DIR/a.txt"

# ---- every layout re-rendered from the JSON, byte for byte ----
for l in text csv markdown json; do
  if [ $l = json ]; then
    "$S" meta -n 50 --size 1k --format json -o "$T_DIR/live.json" "$D" 2>/dev/null
    cp "$T_DIR/live.json" "$T_DIR/live-json.json"
  else
    "$S" meta -n 50 --size 1k --format $l -o "$T_DIR/live.$l" --json="$T_DIR/live-$l.json" "$D" 2>/dev/null
  fi
  "$S" report "$T_DIR/live-$l.json" --format $l >"$T_DIR/re.$l"
  check "report --format $l = the live run's" cmp -s "$T_DIR/live.$l" "$T_DIR/re.$l"
done
"$S" meta -n 50 --size 1k --json="$T_DIR/h.json" --html "$T_DIR/live.html" "$D" >/dev/null 2>&1
"$S" report "$T_DIR/h.json" --format html -o "$T_DIR/re.html"
check "--html = report --format html" cmp -s "$T_DIR/live.html" "$T_DIR/re.html"
check "the html has the rates chart" grep -q 'meta-rates' "$T_DIR/live.html"
check "csv: a row per phase" test "$(grep -cE '^(create|stat|probe|list|delete),50,0,' "$T_DIR/live.csv")" = 5

# ---- each file's data its own: no 4 KiB block written twice ----
# (a deduplicating store would otherwise keep one copy of every file);
# the data as written, seen by strace (the engine's namespace writes at an
# offset, pwrite64): the files are gone at the end
if command -v strace >/dev/null && strace -qq -o /dev/null true 2>/dev/null; then
  for k in 1 2; do
    # (LeakSanitizer cannot run under ptrace: the leak check is off here)
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
      strace -f -qq -e trace=write,pwrite64 -s 9000 -xx -o "$T_DIR/w$k.tr" "$S" meta -n 4 --size 8k --quiet "$D" \
      >/dev/null 2>&1 || fail "meta under strace, run $k"
  done
  # each write of a file's 8 KiB, cut into its two 4 KiB blocks (\xNN: 4 characters a byte)
  cat "$T_DIR/w1.tr" "$T_DIR/w2.tr" | grep '= 8192$' | sed 's/.*write\(64\)\{0,1\}([0-9]*, "\([^"]*\)".*/\2/' |
    awk '{ print substr($0, 1, 16384); print substr($0, 16385) }' >"$T_DIR/blocks"
  check "size 8k: 4 files written whole in each of 2 runs" test "$(wc -l <"$T_DIR/blocks")" = 16
  check "size 8k: every 4 KiB block of the 8 files differs" test "$(sort -u "$T_DIR/blocks" | wc -l)" = 16
  check "DIR as it was" test "$(listing)" = "$before"
else
  echo "strace cannot run here: the data of each file is not checked"
fi

# ---- size 0: no probe ----
expect_rc 0 "meta -n 100 (size 0)" "$S" meta -n 100 --json="$T_DIR/z.json" "$D"
check "size 0: probe skipped, said" grep -q '^probe    skipped' "$T_DIR/out"
check "size 0: no probe in the JSON" test "$(json "$T_DIR/z.json" "sorted(d['meta']['ops'])")" = "['create', 'delete', 'list', 'stat']"
check "size 0: no sequence line (no probe rate)" test "$(grep -c '^a sequence' "$T_DIR/out")" = 0
check "DIR as it was" test "$(listing)" = "$before"

# ---- bad inputs: one line, exit 2, nothing made ----
touch "$T_DIR/afile"
expect_usage "-n 0" "$S" meta -n 0 "$D"
expect_usage "-n junk" "$S" meta -n 12x "$D"
expect_usage "-n over the limit" "$S" meta -n 10000001 "$D"
expect_usage "-t 0" "$S" meta -t 0 "$D"
expect_usage "-t 65" "$S" meta -t 65 "$D"
expect_usage "-t above -n" "$S" meta -n 2 -t 3 "$D"
expect_usage "--size -1" "$S" meta --size -1 "$D"
expect_usage "--size 2G" "$S" meta --size 2G "$D"
expect_usage "no such directory" "$S" meta "$T_DIR/none"
expect_usage "a file, not a directory" "$S" meta "$T_DIR/afile"
expect_usage "two directories" "$S" meta "$D" "$D"
expect_usage "the root directory" "$S" meta -n 5 /
expect_usage "a layout meta has not" "$S" meta --format sysbench "$D"
expect_usage "an unknown option" "$S" meta --bogus "$D"
check "DIR as it was after the bad inputs" test "$(listing)" = "$before"

# ---- --save, history, compare ----
expect_rc 0 "--save" "$S" meta -n 50 --save=m1 --db="$T_DIR/h.db" "$D"
"$S" meta -n 50 --save=m1 --db="$T_DIR/h.db" "$D" >/dev/null 2>&1
check "history lists the meta key" grep -Eq '^m1 +meta +2 ' <("$S" history --db="$T_DIR/h.db")
check "compare: the create rate" grep -q '^create ops/s' <("$S" compare --db="$T_DIR/h.db" m1 m1)

# ---- run's metadata line ----
R=$T_DIR/r
mkdir "$R"
expect_rc 0 "run --time 4" "$S" run "$R" --time 4 --quiet --no-confirm --formats dpx-hd --fps 24 \
  --json="$T_DIR/run.json"
# cold as root (docs/meta.md), said in the line
if [ "$(id -u)" = 0 ]; then caches="caches dropped"; else caches="warm caches"; fi
check "run: the metadata line" grep -q "^  metadata (2000 files of 4096 bytes, one thread, $caches): stat" "$T_DIR/out"
# the line is wrapped at 78 columns
check "run: a sequence of 100000 frames" grep -q "a sequence of 100000 frames is listed in .*, every frame stat'ed and its header read in " \
  <(tr -s ' \n' ' ' <"$T_DIR/out")
check "run.meta in the JSON" test "$(json "$T_DIR/run.json" "sorted(d['run']['meta'])")" = \
  "['caches', 'create_per_s', 'delete_per_s', 'files', 'list_per_s', 'probe_per_s', 'sequence_frames', 'sequence_list_ns', 'sequence_probe_ns', 'size_bytes', 'stat_per_s']"
check "run: its test directory removed" test -z "$(ls -A "$R")"
"$S" report "$T_DIR/run.json" >"$T_DIR/run.re"
check "run: report prints the metadata line again" grep -q "^  metadata (2000 files" "$T_DIR/run.re"
# the same sentence, figure for figure, in markdown and in the HTML page
words=$(tr -s ' \n' ' ' <"$T_DIR/run.re" | grep -o "metadata (2000 files[^:]*:[^:]*: a sequence of 100000 frames is listed in [^,]*, every frame stat'ed and its header read in [0-9.]* [a-z]*")
check "run: the sentence found in the text" test -n "$words"
"$S" report "$T_DIR/run.json" --format markdown >"$T_DIR/run.md"
check "run: markdown says the same" grep -qF "M${words#m}." "$T_DIR/run.md"
"$S" report "$T_DIR/run.json" --format html >"$T_DIR/run.html"
check "run: the HTML page says the same" grep -qF "<p>M${words#m}.</p>" <(sed "s/&#39;/'/g; s/&apos;/'/g" "$T_DIR/run.html")
expect_rc 0 "run --engine null" "$S" run "$R" --time 2 --quiet --engine null --no-confirm --formats dpx-hd \
  --fps 24 --json="$T_DIR/run-null.json"
check "run --engine null: no metadata line" test "$(grep -c 'metadata (' "$T_DIR/out")" = 0
check "run --engine null: no run.meta" test "$(json "$T_DIR/run-null.json" "'meta' in d['run']")" = False

# ---- a full disk: a 1 MiB tmpfs ----
M=$T_DIR/small
mkdir "$M"
if mount -t tmpfs -o size=1m tmpfs "$M" 2>/dev/null; then
  trap 'umount "$M" 2>/dev/null; t_cleanup' EXIT
  mkdir "$M/d"
  echo keep >"$M/d/mine"
  "$S" meta -n 100 --size 64k --json="$T_DIR/full.json" "$M/d" >"$T_DIR/full.out" 2>"$T_DIR/full.err"
  check "full disk: exit 1" test $? = 1
  check "full disk: one line naming the file and the error" \
    grep -Eq "^stormark: cannot (create|write) '$M/d/\.stormark-meta-.{6}/frame0000[0-9]{2}\.tst': No space left on device" "$T_DIR/full.err"
  check "full disk: one line on stderr" test "$(wc -l <"$T_DIR/full.err")" = 1
  check "full disk: the partial report" grep -Eq '^create +[0-9]+ +1 ' "$T_DIR/full.out"
  check "full disk: the phases after it not run" grep -q '^stat     not run' "$T_DIR/full.out"
  check "full disk: the JSON has create only" test "$(json "$T_DIR/full.json" "sorted(d['meta']['ops'])")" = "['create']"
  check "full disk: its files removed, the directory as it was" test "$(ls -A "$M/d")" = mine
  umount "$M"
else
  echo "note: cannot mount a tmpfs here: the full-disk case is not run"
fi

# ---- cold metadata: the caches dropped before stat, probe and list ----
# (docs/meta.md). As root they are dropped and each reading phase says so;
# --warm keeps them and says the figures are warm; without root they cannot
# be dropped, and the run says why.
if [ "$(id -u)" = 0 ]; then
  "$S" meta -n 300 --size 8k --json="$T_DIR/cold.json" "$D" >"$T_DIR/cold.out" 2>"$T_DIR/cold.err"
  check "cold: exit 0" test $? = 0
  check "cold: stat, probe and list on dropped caches" test "$(json "$T_DIR/cold.json" \
    "[d['meta']['ops'][p].get('caches') for p in ('create', 'stat', 'probe', 'list', 'delete')]")" = \
    "[None, 'dropped', 'dropped', 'dropped', None]"
  check "cold: said under the table" grep -q "^caches: dropped (page, dentry, inode) before stat, probe and list" "$T_DIR/cold.out"
  check "cold: no warning" test ! -s "$T_DIR/cold.err"
fi
"$S" meta -n 300 --size 8k --warm --json="$T_DIR/warm.json" "$D" >"$T_DIR/warm.out" 2>"$T_DIR/warm.err"
check "--warm: exit 0" test $? = 0
check "--warm: stat, probe and list warm" test "$(json "$T_DIR/warm.json" \
  "[d['meta']['ops'][p]['caches'] for p in ('stat', 'probe', 'list')] + [d['params']['warm']]")" = \
  "['warm', 'warm', 'warm', True]"
check "--warm: said under the table" grep -q "^caches: warm for stat, probe and list" "$T_DIR/warm.out"
check "--warm: a warning in the JSON" test "$(json "$T_DIR/warm.json" "[w['code'] for w in d['warnings']]")" = "['meta_warm']"
# Not root: the binary and the run's directory go where nobody can reach
# them (the clone, and so $T_DIR, may be in a directory closed to others).
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ] &&
   U=$(mktemp -d /tmp/stormark-meta-nobody-XXXXXX); then
  chmod 755 "$U" && cp "$S" "$U/stormark" && mkdir "$U/d" && chmod 777 "$U/d"
  (cd / && env TSAN_OPTIONS="$(printf '%s' "${TSAN_OPTIONS:-}" | sed 's/suppressions=[^ :]*//')" \
     setpriv --reuid=65534 --regid=65534 --clear-groups "$U/stormark" meta -n 300 --size 8k \
     --json="$U/d/u.json" "$U/d") >"$T_DIR/u.out" 2>"$T_DIR/u.err"
  check "not root: exit 0" test $? = 0
  check "not root: stat, probe and list warm" test "$(json "$U/d/u.json" \
    "[d['meta']['ops'][p]['caches'] for p in ('stat', 'probe', 'list')]")" = "['warm', 'warm', 'warm']"
  check "not root: the warning says why" sh -c "$(declare -f joined); joined '$T_DIR/u.out' |
    grep -q 'warm caches: they could not be dropped (Permission denied; it needs root)'"
  rm -rf "$U"
fi

# ---- a signal: the partial report, the files removed, exit 130 ----
"$S" meta -n 2000000 --json="$T_DIR/int.json" "$D" >"$T_DIR/int.out" 2>"$T_DIR/int.err" &
pid=$!
for i in $(seq 1 100); do
  ls -d "$D"/.stormark-meta-* >/dev/null 2>&1 && break
  sleep 0.02
done
sleep 0.3
kill -INT $pid
wait $pid
check "SIGINT: exit 130" test $? = 130
check "SIGINT: said on one line" grep -q '^stormark: interrupted: the figures above are partial; the run.s files removed' "$T_DIR/int.err"
check "SIGINT: the report says so" grep -q '^interrupted: the figures are partial' "$T_DIR/int.out"
check "SIGINT: interrupted in the JSON" test "$(json "$T_DIR/int.json" "d['interrupted'] and d['meta']['cleaned']")" = True
check "SIGINT: DIR as it was" test "$(listing)" = "$before"
finish
