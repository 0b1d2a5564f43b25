# SPDX-License-Identifier: MIT
# An output path is absent, a regular file, a FIFO, /dev/null or - (stdout):
# every output flag of every command refuses a block device (a real loop
# device over random bytes, whose bytes must stay the same), a character
# device and a socket, exit 2 and one line before any work. A report
# replaces a file only when complete: the old file stays when the write
# fails, the mode of the replaced file is kept, a symbolic link's target
# is the file replaced.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1
command -v losetup >/dev/null || skip "no losetup"
[ "$(id -u)" = 0 ] || skip "loop devices need root"

W="$T_DIR/work"
mkdir -p "$W"
head -c 1048576 /dev/urandom >"$T_DIR/img"
LOOP=$(losetup -f --show "$T_DIR/img" 2>/dev/null) || skip "no free loop device"
MNT=""
trap 'losetup -d "$LOOP"; [ -n "$MNT" ] && umount "$MNT" 2>/dev/null; t_cleanup' EXIT
SUM=$(sha256sum <"$LOOP")

"$S" time --quiet --json="$T_DIR/t.json" true >/dev/null 2>&1 || fail "time --json for inputs"
cp "$T_DIR/t.json" "$T_DIR/u.json"
FIO="--file-total-size=1M --file-num=2 --file-dir=$W"

# refused DESC CMD...: exit 2, one line, no test file made, the device as it was
refused() {
  local d=$1; shift
  expect_usage "$d" "$@"
  if [ -n "$(ls -A "$W")" ]; then fail "$d: work was done"; rm -rf "${W:?}"/*; fi
}
for dev in "$LOOP" /dev/zero; do
  refused "frames --json=$dev" "$S" frames -w 4 -n 2 --json="$dev" "$W"
  refused "frames -x $dev" "$S" frames -w 4 -n 2 -x "$dev" "$W"
  refused "frames --html $dev" "$S" frames -w 4 -n 2 --html "$dev" "$W"
  refused "fileio run --json=$dev" "$S" fileio $FIO --file-test-mode=seqwr --time=1 --json="$dev" run
  refused "fileio run -o $dev" "$S" fileio $FIO --file-test-mode=seqwr --time=1 -o "$dev" run
  refused "report -o $dev" "$S" report "$T_DIR/t.json" -o "$dev"
  refused "report --html $dev" "$S" report "$T_DIR/t.json" --html "$dev"
  refused "compare -o $dev" "$S" compare "$T_DIR/t.json" "$T_DIR/u.json" -o "$dev"
  refused "compare --html $dev" "$S" compare "$T_DIR/t.json" "$T_DIR/u.json" --html "$dev"
  refused "compare --json=$dev" "$S" compare "$T_DIR/t.json" "$T_DIR/u.json" --json="$dev"
  refused "history -o $dev" "$S" history --db "$T_DIR/h.db" -o "$dev"
  refused "time -o $dev" "$S" time -o "$dev" touch "$W/ran"
  refused "time --json=$dev" "$S" time --json="$dev" touch "$W/ran"
  refused "time --db $dev" "$S" time --save k --db "$dev" touch "$W/ran"
  refused "streams --html $dev" "$S" streams "$W" --rate-mib 2 --step 1 --time 2 --max-streams 1 \
    --quiet --html "$dev"
  refused "run -o $dev" "$S" run "$W" --engine null --time 1 --quiet --no-confirm -o "$dev"
  refused "meta --json=$dev" "$S" meta -n 20 --json="$dev" "$W"
  refused "meta --html $dev" "$S" meta -n 20 --html "$dev" "$W"
done
check "the loop device's bytes are unchanged" [ "$(sha256sum <"$LOOP")" = "$SUM" ]
"$S" report "$T_DIR/t.json" -o "$LOOP" 2>"$T_DIR/err"
check "the line says why" grep -q "'$LOOP': it is a block device" "$T_DIR/err"

# a socket and a link to a device
python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])" "$T_DIR/sock"
refused "report -o SOCKET" "$S" report "$T_DIR/t.json" -o "$T_DIR/sock"
ln -s "$LOOP" "$T_DIR/dev-link"
refused "report -o LINK-TO-DEVICE" "$S" report "$T_DIR/t.json" -o "$T_DIR/dev-link"
check "the loop device's bytes are still unchanged" [ "$(sha256sum <"$LOOP")" = "$SUM" ]

# what is accepted: /dev/null, a FIFO, a new file, a regular file
expect_rc 0 "report -o /dev/null" "$S" report "$T_DIR/t.json" -o /dev/null
check "/dev/null is still a character device" [ -c /dev/null ]
mkfifo "$T_DIR/fifo"
cat "$T_DIR/fifo" >"$T_DIR/fifo.out" &
expect_rc 0 "report -o FIFO" "$S" report "$T_DIR/t.json" -o "$T_DIR/fifo"
wait
"$S" report "$T_DIR/t.json" >"$T_DIR/want.txt"
check "a FIFO carries the report" cmp -s "$T_DIR/fifo.out" "$T_DIR/want.txt"

# a replaced file keeps its mode; a new one takes the umask; no name is left behind
echo old >"$T_DIR/r.txt"; chmod 640 "$T_DIR/r.txt"
expect_rc 0 "report -o FILE over a file" "$S" report "$T_DIR/t.json" -o "$T_DIR/r.txt"
check "-o FILE holds the report" cmp -s "$T_DIR/r.txt" "$T_DIR/want.txt"
check "the replaced file's mode is kept" [ "$(stat -c %a "$T_DIR/r.txt")" = 640 ]
(umask 027; "$S" report "$T_DIR/t.json" --html "$T_DIR/new.html") || fail "--html new file"
check "a new file's mode is the umask's" [ "$(stat -c %a "$T_DIR/new.html")" = 640 ]
# a link: its target is replaced, the link stays
echo old >"$T_DIR/target.json"
ln -s target.json "$T_DIR/link.json"
expect_rc 0 "time --json=LINK" "$S" time --quiet --json="$T_DIR/link.json" true
check "the link stays a link" [ -L "$T_DIR/link.json" ]
check "the link's target holds the JSON" grep -q '"schema_version"' "$T_DIR/target.json"
check "no temporary file is left" [ -z "$(find "$T_DIR" -maxdepth 1 -name '.*' -type f)" ]

# a write that fails leaves the old file whole and no temporary file
if command -v mount >/dev/null && MNT="$T_DIR/small" && mkdir -p "$MNT" &&
   mount -t tmpfs -o size=64k "sm-outkinds-$$" "$MNT" 2>/dev/null; then
  echo "the good report" >"$MNT/r.txt"
  head -c 1M /dev/zero >"$MNT/fill" 2>/dev/null   # until the file system is full
  # a report larger than the room left (the HTML report is tens of KiB)
  expect_rc 1 "report --html on a full file system" "$S" report "$T_DIR/t.json" --html "$MNT/r.txt"
  check "the old file is kept whole" [ "$(cat "$MNT/r.txt")" = "the good report" ]
  check "no temporary file is left on the full file system" [ -z "$(find "$MNT" -name '.*' -type f)" ]
  grep -q "No space left on device" "$T_DIR/out" || fail "ENOSPC named: $(cat "$T_DIR/out")"
  expect_rc 1 "report -o on a full file system" "$S" report "$T_DIR/t.json" --format html -o "$MNT/r.txt"
  check "the old file is kept whole after -o" [ "$(cat "$MNT/r.txt")" = "the good report" ]
  check "no temporary file is left after -o" [ -z "$(find "$MNT" -name '.*' -type f)" ]
  expect_rc 1 "frames -x on a full file system" "$S" frames -w 4 -n 2 -x "$MNT/r.txt" "$W"
  rm -rf "${W:?}"/*
  expect_rc 1 "time --json=FILE on a full file system" "$S" time --quiet --json="$MNT/r.txt" true
  check "the old file is kept whole after -x and --json" [ "$(cat "$MNT/r.txt")" = "the good report" ]
  check "no temporary file is left after -x and --json" [ -z "$(find "$MNT" -name '.*' -type f)" ]
  umount "$MNT"; MNT=""
else
  echo "note: no tmpfs mount here; the full file system case is left out"
fi

finish
