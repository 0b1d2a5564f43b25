# SPDX-License-Identifier: MIT
# An output is never one of the inputs, the history, another output or a
# file the run writes: each command refuses it, exit 2 with one line before
# any work, and every file stays as it was.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1
mkdir -p w
"$S" time --quiet --json=a.json --save k --db h.db true >/dev/null 2>&1 || fail "time --save for inputs"
cp a.json b.json
ln -s a.json link.json
printf '1xprores-proxy-hd@25:play\n' >m.mix
sums() { sha256sum a.json b.json h.db m.mix; ls -A w; }
BEFORE=$(sums)

# refused DESC CMD...: exit 2, one line, no file changed, nothing in w/
refused() {
  local d=$1; shift
  expect_usage "$d" "$@"
  grep -q "cannot write" "$T_DIR/usage.err" || fail "$d: $(cat "$T_DIR/usage.err")"
  [ "$(sums)" = "$BEFORE" ] || { fail "$d: a file changed"; }
  rm -rf w/* test_file.*
}
refused "report IN -o IN" "$S" report a.json -o a.json
refused "report IN -o ./IN" "$S" report a.json -o ./a.json
refused "report IN -o LINK-TO-IN" "$S" report a.json -o link.json
refused "report IN --html IN" "$S" report a.json --html a.json
refused "streams --mix @M -o M" "$S" streams --mix @m.mix --time 1 --step 1 -o m.mix w
refused "streams --mix @M --html M" "$S" streams --mix @m.mix --time 1 --step 1 --html m.mix w
refused "streams --mix @M --json=./M" "$S" streams --mix @m.mix --time 1 --step 1 --json=./m.mix w
refused "streams --mix @M -o LINK-TO-M" "$S" streams --mix @m.mix --time 1 --step 1 \
  -o "$(ln -s m.mix mlink && echo mlink)" w
rm -f mlink
# standard input's file is an input of `report -`
refused "report - -o IN < IN" sh -c '"$0" report - -o a.json <a.json' "$S"
refused "report - --html LINK-TO-IN < IN" sh -c '"$0" report - --html link.json <a.json' "$S"
refused "compare A B -o A" "$S" compare a.json b.json -o a.json
refused "compare A B --html A" "$S" compare a.json b.json --html a.json
refused "compare A B --json=B" "$S" compare a.json b.json --json=b.json
refused "compare KEY KEY -o DB" "$S" compare --db h.db k k -o h.db
refused "history --db H -o H" "$S" history --db h.db -o h.db
refused "history --db H --json=H" "$S" history --db h.db --json=h.db
refused "history --db H KEY --html H" "$S" history --db h.db k --html h.db
refused "history --db H KEY --html ./H" "$S" history --db h.db k --html ./h.db
refused "time --save --db H -o H" "$S" time --save k --db h.db -o h.db -- true
refused "time --save --db H --json=H" "$S" time --save k --db h.db --json=h.db -- true
refused "time --json X --html X" "$S" time --json=x.out --html x.out -- true
refused "time -o X --json=X" "$S" time -o x.out --json=x.out -- true
refused "frames --html DIR/frame000001.tst" "$S" frames -w 4 -n 2 --html w/frame000001.tst w
refused "frames -x DIR/frame000000.tst" "$S" frames -w 4 -n 2 -x w/frame000000.tst w
mkdir -p wd/d00000
refused "frames -d: --output DIR/d00000/frame000000.tst" "$S" frames -w 4 -n 2 -d 2 --output wd/d00000/frame000000.tst wd
[ -z "$(find wd -type f)" ] || fail "frames -d: files written"
refused "frames -x X --json=X" "$S" frames -w 4 -n 2 -x x.csv --json=x.csv w
refused "frames --save --db H -x H" "$S" frames -w 4 -n 2 --save k --db h.db -x h.db w
refused "fileio run --json=test_file.1" "$S" fileio --file-total-size=1M --file-num=2 \
  --file-test-mode=seqwr --time=1 --json=test_file.1 run
refused "fileio run --file-dir -o DIR/test_file.0" "$S" fileio --file-total-size=1M --file-num=2 \
  --file-dir=w --file-test-mode=seqwr --time=1 -o w/test_file.0 run
refused "run --save --db H --json=H" "$S" run w --engine null --time 1 --quiet --no-confirm \
  --save k --db h.db --json=h.db
refused "meta --json X --html X" "$S" meta -n 20 --json=x.out --html x.out w
refused "meta --save --db H -o H" "$S" meta -n 20 --save k --db h.db -o h.db w
[ -e x.out ] && fail "x.out was created"
# the line names both
"$S" report a.json --html a.json 2>err.txt
check "the line names the input" grep -q "cannot write --html 'a.json': it is the input 'a.json'" err.txt
"$S" report - -o a.json <a.json 2>err.txt
check "the line names standard input" grep -q "cannot write -o/--output 'a.json': it is the input, read from standard input" err.txt
"$S" streams --mix @m.mix -o m.mix w 2>err.txt
check "the line names the mix file" grep -q "cannot write -o/--output 'm.mix': it is the --mix file 'm.mix'" err.txt

# what stays allowed: two outputs to /dev/null, a frame-like name elsewhere
expect_rc 0 "--json and --html both to /dev/null" "$S" time --quiet --json=/dev/null --html /dev/null true
expect_rc 0 "compare a file with itself" "$S" compare a.json a.json
expect_rc 0 "report - from a pipe to a file" sh -c 'cat a.json | "$0" report - -o r.txt' "$S"
expect_rc 0 "report -o a name like a frame outside the test directory" "$S" report a.json -o frame000001.tst
finish
