#!/bin/bash
# SPDX-License-Identifier: MIT
# scripts/stormark.bash-completion driven as bash drives it (COMP_WORDS,
# COMP_CWORD, COMP_LINE, COMP_POINT, then the function; COMPREPLY read
# back), with and without the bash-completion package: commands, every
# command's options against its --help (printed from the same table by
# another path), the --format names against what each command accepts,
# video formats, presets, choices, frametest's options, positionals.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
SCRIPT=$SM_SOURCE_DIR/scripts/stormark.bash-completion
BC=/usr/share/bash-completion/bash_completion
# the completion calls the binary by the name typed: stormark, frametest
export PATH="$(dirname "$S"):$PATH"
# the files completed are those of a directory of their own
mkdir "$T_DIR/cwd" && cd "$T_DIR/cwd" || exit 1
touch afile.json bfile.txt
mkdir adir

# comp BC LINE: what completing LINE (the cursor at its end) offers, one a
# line, sorted; BC=1 with bash-completion's functions loaded first.
comp() {
  bash --norc --noprofile -c '
    [ "$1" = 1 ] && { . "$3" || exit 3; }
    . "$2" || exit 4
    line=$4
    # readline splits the line at blanks and makes "=" a word of its own
    read -ra COMP_WORDS <<<"${line//=/ = }"
    [[ $line == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE=$line
    COMP_POINT=${#line}
    COMPREPLY=()
    _stormark "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf "%s\n" "${COMPREPLY[@]}"' comp "$1" "$SCRIPT" "$BC" "$2" | sed '/^$/d' | sort
}

# same DESC GOT WANT: two word lists (any order, any blanks) are equal
same() {
  local g w
  g=$(tr -s ' \n' '\n\n' <<<"$2" | sed '/^$/d' | sort -u)
  w=$(tr -s ' \n' '\n\n' <<<"$3" | sed '/^$/d' | sort -u)
  if [ -n "$w" ] && [ "$g" = "$w" ]; then ok
  else fail "$1"; diff <(echo "$w") <(echo "$g") | head -8 >&2; fi
}

# has DESC LIST WORD: LIST holds WORD
has() { if grep -qx -- "$3" <<<"$2"; then ok; else fail "$1: no '$3' in: $(echo $2 | head -c 300)"; fi; }

# the long options of `CMD --help`: option lines begin with two blanks and
# -x, or six blanks and --name (continuation lines are indented further)
help_long() { "$S" "$@" --help | grep -oE '^(  -[^ ,], |      )--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+'; }
help_short() { "$S" "$@" --help | grep -oE '^  -[^ ,-]' | grep -oE -- '-.'; }

# the layouts CMD accepts, found by trying each: a refused one says
# "layout is not available" before any work
accepted() {
  local l
  for l in $("$S" --list-layouts); do
    case $1 in
      run) "$S" run --format "$l" "$T_DIR/none" ;;
      frames) "$S" frames -r --format "$l" "$T_DIR/none" ;;
      fileio) "$S" fileio --format="$l" ;;
      time) "$S" time --format "$l" ;;
      history) "$S" history --format "$l" --db "$T_DIR/none/h.db" ;;
      compare) "$S" compare --format "$l" --db "$T_DIR/none/h.db" a b ;;
      streams) "$S" streams --format "$l" "$T_DIR/none" ;;
      meta) "$S" meta --format "$l" "$T_DIR/none" ;;
    esac 2>&1 >/dev/null | grep -q "layout is not available" || echo "$l"
  done
}

# history keys: in the default database (XDG_DATA_HOME) and in one named
# by --db
export XDG_DATA_HOME=$T_DIR/xdg
mkdir -p "$XDG_DATA_HOME"
expect_rc 0 "--list-keys with no database: exit 0" "$S" history --list-keys
check "--list-keys with no database: nothing printed" test ! -s "$T_DIR/out"
check "--list-keys created no database" test ! -e "$XDG_DATA_HOME/stormark/history.db"
for k in alpha beta-run; do "$S" time --save $k -- true >/dev/null 2>&1 || fail "time --save $k"; done
"$S" time --save other --db "$T_DIR/o.db" -- true >/dev/null 2>&1 || fail "time --save other"
same "history --list-keys: the keys, one a line" "$("$S" history --list-keys)" "alpha beta-run"
expect_usage "--list-keys takes no KEY" "$S" history --list-keys alpha

# --list-layouts CMD: the layouts of CMD's render table, which are what
# it accepts, and what its --format help names, in the table's order
for c in frames fileio time run streams meta compare; do
  same "--list-layouts $c = what $c accepts" "$("$S" --list-layouts $c)" "$(accepted $c)"
  h=$("$S" $c --help | tr -s ' \n' '  ' | sed -E 's/.*report layout: //; s/ +-[-a-z].*//;
      s/\([^)]*\)//g; s/,| or / /g' | tr -s ' ' '\n' | sed '/^$/d')
  check "$c --help lists --list-layouts $c, in order" test "$h" = "$("$S" --list-layouts $c)"
done
expect_usage "--list-layouts of a command without a render table" "$S" --list-layouts history

modes=0
if [ -r "$BC" ]; then modes="0 1"; else echo "note: $BC missing: bash alone only"; fi
commands=$("$S" --help | sed -n '/^Commands:/,/^$/p' | grep -oE '^  [a-z]+' | tr -d ' ')
for m in $modes; do
  M="(bash-completion $m)"
  same "commands $M" "$(comp $m 'stormark ')" "$commands"
  same "commands = --list-commands $M" "$(comp $m 'stormark ')" "$("$S" --list-commands)"
  same "help COMMAND $M" "$(comp $m 'stormark help f')" "frames fileio"
  same "global options $M" "$(comp $m 'stormark --')" "--help --version"
  for c in $("$S" --list-commands | grep -vx help); do
    got=$(comp $m "stormark $c --" | tr -d =)
    same "$c: long options = its --help $M" "$got" "$(help_long $c)"
    got=$(comp $m "stormark $c -" | grep -v -- '^--')
    same "$c: short options = its --help $M" "$got" "$(help_short $c)"
  done
  has "fileio: a value attached $M" "$(comp $m 'stormark fileio --file-nu')" "--file-num="
  same "frametest: frames' options, long ones too $M" "$(comp $m 'frametest -' | tr -d =)" \
    "$(help_long frames; help_short frames)"
  has "frametest: -w presets $M" "$(comp $m 'frametest -w ')" "2k"

  # --format: per command, what the command accepts
  for c in $("$S" --list-commands | grep -vx 'help\|report'); do
    same "$c --format $M" "$(comp $m "stormark $c --format ")" "$(accepted $c)"
  done
  same "report --format: every layout $M" "$(comp $m 'stormark report --format ')" "$("$S" --list-layouts)"
  same "--format=mark $M" "$(comp $m 'stormark frames --format=mark')" "markdown"
  same "fileio --format=c $M" "$(comp $m 'stormark fileio --format=c')" "csv"

  # values: video formats (against --list-formats, which prints them from
  # the same table for people), presets, engines, choices
  vf=$("$S" frames --list-formats | sed -n '/^video formats/,/^$/p' | grep -oE '^  [^ ]+' | tr -d ' ')
  same "--video-format $M" "$(comp $m 'stormark frames --video-format ')" "$vf"
  has "run --video-formats LIST: the last name $M" \
    "$(comp $m 'stormark run --video-formats dpx-hd,dpx-2')" "dpx-hd,dpx-2k"
  pr=$("$S" frames --list-formats | sed -n '2,/^$/p' | grep -oE '^  [^ ]+' | tr -d ' ')
  same "frames -w presets $M" "$(comp $m 'stormark frames -w ')" "$pr"
  has "streams --video-format LIST $M" "$(comp $m 'stormark streams --video-format prores-proxy-hd,prores-lt-')" \
    "prores-proxy-hd,prores-lt-hd"
  same "frames --engine $M" "$(comp $m 'stormark frames --engine ')" "$("$S" --list-engines)"
  same "fileio --file-io-mode= $M" "$(comp $m 'stormark fileio --file-io-mode=')" "sync async mmap"
  same "frames --data $M" "$(comp $m 'stormark frames --data ')" "random zero"
  same "fileio --file-test-mode=rnd $M" "$(comp $m 'stormark fileio --file-test-mode=rnd')" \
    "rndrd rndwr rndrw"

  # positionals and files
  same "fileio: its commands $M" "$(comp $m 'stormark fileio --threads=2 ')" "prepare run cleanup help"
  same "report: JSON files and directories $M" "$(comp $m 'stormark report ')" "afile.json adir"
  same "run: directories $M" "$(comp $m 'stormark run --time 10 ')" "adir"
  same "frames -o takes no value: the path $M" "$(comp $m 'stormark frames -o ')" "afile.json adir bfile.txt"
  same "frames -x FILE $M" "$(comp $m 'stormark frames -x b')" "bfile.txt"
  same "--json=FILE $M" "$(comp $m 'stormark frames --json=a')" "afile.json adir"
  has "time: the command $M" "$(comp $m 'stormark time -n 3 ')" "bash"
  same "time: the command's arguments $M" "$(comp $m 'stormark time -n 3 cat b')" "bfile.txt"
  has "time -- COMMAND $M" "$(comp $m 'stormark time -- ')" "bash"

  # history keys: history's KEYs, compare's A and B (besides files), --save
  same "history KEY: the keys $M" "$(comp $m 'stormark history ')" "alpha beta-run"
  same "history KEY: a prefix $M" "$(comp $m 'stormark history be')" "beta-run"
  same "history KEY KEY2 $M" "$(comp $m 'stormark history alpha ')" "alpha beta-run"
  same "history --db PATH KEY: that database's $M" "$(comp $m "stormark history --db $T_DIR/o.db ")" "other"
  same "history --db=PATH KEY $M" "$(comp $m "stormark history --db=$T_DIR/o.db o")" "other"
  same "compare: keys, JSON files and directories $M" "$(comp $m 'stormark compare ')" \
    "alpha beta-run afile.json adir"
  same "compare A B: a key $M" "$(comp $m 'stormark compare afile.json al')" "alpha"
  same "time --save KEY $M" "$(comp $m 'stormark time --save ')" "alpha beta-run"
  same "frames --save KEY $M" "$(comp $m 'stormark frames --save b')" "beta-run"
  same "run --save=KEY $M" "$(comp $m 'stormark run --save=a')" "alpha"
  same "fileio --save=KEY --db=PATH $M" "$(comp $m "stormark fileio --db=$T_DIR/o.db --save=")" "other"
done
finish
