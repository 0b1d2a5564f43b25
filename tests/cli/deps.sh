# SPDX-License-Identifier: MIT
# scripts/deps.sh installs what the build links: every library on a link
# line of this build (CMake's link.txt of each target: stormark, the unit
# tests, the MPI module, the FUSE helper) comes from a Debian package that
# scripts/deps.sh --list names; the C library's own (libm, libdl,
# libpthread: libc6-dev) comes with build-essential. SQLite's static
# archive pulls in -lz, which no other listed package brought (issue 30).
. "$SM_SOURCE_DIR/tests/lib.sh"
command -v dpkg >/dev/null || skip "dpkg is needed to find the package of a library (a Debian system)"
links=$(ls "$SM_BUILD_DIR"/CMakeFiles/*.dir/link.txt 2>/dev/null)
[ -n "$links" ] || skip "no CMakeFiles/*/link.txt in the build (another CMake generator): the link lines are not known"
CC=$(command -v cc || command -v gcc) || skip "no C compiler to resolve -l names"
"$SM_SOURCE_DIR/scripts/deps.sh" --list >"$T_DIR/pkgs"
check "deps.sh --list names the build's packages" grep -qx libsqlite3-dev "$T_DIR/pkgs"
expect_rc 2 "deps.sh refuses an unknown option" "$SM_SOURCE_DIR/scripts/deps.sh" --lst
# lib FILE-OR--lNAME: the library file it names (an -l name as the compiler
# finds it, shared first)
lib() {
  local n f
  case $1 in
    -l*) n=${1#-l}
         for f in "lib$n.so" "lib$n.a"; do
           f=$("$CC" -print-file-name="$f")
           case $f in /*) realpath -s "$f"; return ;; esac
         done
         echo "$1" ;;
    *) echo "$1" ;;
  esac
}
n=0
# shellcheck disable=SC2086
for w in $(cat $links | tr ' ' '\n' | grep -E '^(-l[A-Za-z0-9_+-]+|/.*\.(a|so)(\.[0-9.]+)?)$' | sort -u); do
  f=$(lib "$w")
  pkg=$(dpkg -S "$f" 2>/dev/null | head -1 | cut -d: -f1)
  if [ -z "$pkg" ]; then
    fail "$w ('$f') belongs to no installed package: scripts/deps.sh cannot install it"
    continue
  fi
  n=$((n + 1))
  [ "$pkg" = libc6-dev ] && pkg=build-essential   # the C library's, which build-essential brings
  check "$w ($pkg) is installed by scripts/deps.sh" grep -qx "$pkg" "$T_DIR/pkgs"
done
# at least the libraries every build links (cJSON, xxHash)
check "the link lines were read" test "$n" -ge 2
finish
