#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The --verify part of a report says what the test did: a read test seals
# nothing and says no "sealing"; the hashing share of the threads' time is
# a share (the read-back pass's time is in the whole), never over 100%.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1
mkdir set
expect_rc 0 "write with --verify" $S frames -w hd -n 20 --verify set
cp "$T_DIR/out" w.txt
check "the write test seals" grep -q 'hashing: [0-9.]* s sealing' w.txt
expect_rc 0 "read with --verify" $S frames -r -n 20 -t 2 --verify --json=r.json set
cp "$T_DIR/out" r.txt
check "the read test says no sealing" sh -c "! grep -q sealing r.txt"
check "the read test says its checking" grep -q 'hashing: [0-9.]* s checking' r.txt
for f in w.txt r.txt; do
  share=$(sed -n 's/.*; \([0-9.]*\)% of the threads.*/\1/p' $f)
  check "$f: a share of the threads' time ($share%)" awk -v s="$share" 'BEGIN { exit !(s != "" && s <= 100) }'
done
python3 -c 'import json; v=json.load(open("r.json"))["verify"]; assert 0 <= v["hash_share"] <= 1, v' ||
  fail "the JSON's hash_share is a share"
finish
