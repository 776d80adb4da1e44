#!/usr/bin/env bash
# The wheel end to end: scripts/wheel.sh builds it, `pip install` puts it into a fresh venv
# from the file alone (no index), and the installed `smallfix` repairs the demo bug
# (scripts/demo.sh's guard-none-grad-skip) to its plausible patch. It must not lean on the
# build machine's libraries, so it runs with them hidden in a private mount namespace:
#   bare: /usr/lib/x86_64-linux-gnu holds only glibc and the C++ runtime, and the source tree
#         is hidden too; the binary's libraries all load from the wheel, and it finds the patch
#         without validating;
#   demo: the full repair, whose test runs need git and Python, with every library the wheel
#         bundles hidden except those that git and Python load themselves, and the source
#         tree's data folders (templates, API history, validator scripts) hidden.
# Prints the wheel's size and the install time. Skipped (exit 77) where the pinned build
# backend cannot be installed (no package index), or where no mount namespace can be made
# (after the checks that need none).
# Usage: install_demo_test.sh SOURCE_DIR   (the tests' python3, with torch, first on PATH)
set -euo pipefail
SRC="$1"
BUG="$SRC/benchmarks/smallfix/bugs/guard-none-grad-skip"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
libdir=/usr/lib/x86_64-linux-gnu
system_libs=(ld-linux-x86-64.so.2 libc.so.6 libm.so.6 libdl.so.2 librt.so.1 libpthread.so.0
  libresolv.so.2 libstdc++.so.6 libgcc_s.so.1)

if ! "$SRC/scripts/wheel.sh" "$work/dist" > "$work/build.log" 2>&1; then
  # wheel.sh stamps the backend's venv once its pinned packages are installed.
  if [[ ! -f "$SRC/build-wheel/backend/.smallfix-lock" ]]; then
    echo "SKIP: the build backend could not be installed: $(tail -3 "$work/build.log")"
    exit 77
  fi
  fail "wheel build: $(tail -20 "$work/build.log")"
fi
wheel=$(echo "$work"/dist/smallfix-*.whl)
[[ -f "$wheel" ]] || fail "no wheel in $work/dist"
python3 -m venv "$work/venv"
start=$(date +%s.%N)
"$work/venv/bin/pip" install -q --disable-pip-version-check --no-index "$wheel" || fail "pip install $wheel"
end=$(date +%s.%N)
echo "wheel: $(basename "$wheel"), $(stat -c %s "$wheel") bytes; pip install into a fresh venv: $(awk "BEGIN {printf \"%.1f\", $end - $start}") s"
smallfix="$work/venv/bin/smallfix"
package=$("$work/venv/bin/python" -c 'import os, smallfix; print(os.path.dirname(smallfix.__file__))')
binary="$package/bin/smallfix"

# The data the binary reads is the package's own, not the source tree's.
"$smallfix" doctor --repo "$SRC" > "$work/doctor.out" 2>&1 || true
grep -qE "^  ok +templates +$package/templates$" "$work/doctor.out" || fail "templates: $(cat "$work/doctor.out")"
grep -qE "^  ok +warm server +$package/validators/.*warm_server.py$" "$work/doctor.out" ||
  fail "warm server: $(cat "$work/doctor.out")"
# Every library outside glibc and the C++ runtime resolves inside the package.
outside=$(ldd "$binary" | awk -v lib="$package/bin/../lib/" '$2 == "=>" && index($3, lib) != 1 {print $1}' |
  grep -vxF -f <(printf '%s\n' "${system_libs[@]}") || true)
[[ -z "$outside" ]] || fail "libraries loaded from outside the wheel: $outside"

cp -r "$BUG/project" "$work/repo"
cp "$BUG/issue.md" "$work/issue.md"
git -C "$work/repo" init -q
git -C "$work/repo" add -A
git -C "$work/repo" -c user.name=t -c user.email=t@example.com commit -qm "buggy project"

# in_namespace SETUP CMD...: CMD in a private mount namespace, after the bash commands SETUP.
in_namespace() {
  local setup="$1"
  shift
  unshare --mount --map-root-user bash -c "$setup"' && exec "$@"' in_namespace "$@"
}
if ! in_namespace "mount --bind $work $work" true 2> "$work/unshare.err"; then
  echo "SKIP: no private mount namespace here ($(cat "$work/unshare.err")): ran no hidden-library check"
  exit 77
fi

# bare: only glibc and the C++ runtime in the library folder, and an empty folder for the
# source tree, whose templates and scripts the binary would otherwise fall back to.
mkdir "$work/bare" "$work/nothing"
for lib in "${system_libs[@]}"; do cp -L "$libdir/$lib" "$work/bare/"; done
bare="mount --bind $work/nothing $SRC && mount --bind $work/bare $libdir"
in_namespace "$bare" /lib64/ld-linux-x86-64.so.2 --list "$(command -v git)" > /dev/null 2>&1 &&
  fail "bare: git's libraries still load, nothing is hidden"
in_namespace "$bare" /lib64/ld-linux-x86-64.so.2 --list "$binary" > "$work/bare.libs" 2>&1 ||
  fail "bare: the binary's libraries do not load: $(cat "$work/bare.libs")"
in_namespace "$bare" "$smallfix" repair --repo "$work/repo" --issue "$work/issue.md" --no-validate \
  > "$work/bare.out" 2>&1 || fail "bare: repair --no-validate: $(cat "$work/bare.out")"
grep -q "^best patch (guard.none-continue" "$work/bare.out" || fail "bare: $(cat "$work/bare.out")"
# Every template's examples, with the data the package holds for them.
in_namespace "$bare" "$smallfix" templates test > "$work/templates.out" 2>&1 ||
  fail "bare: templates test: $(tail -20 "$work/templates.out")"
echo "bare: with only glibc and libstdc++ on the machine and no source tree, the binary finds guard.none-continue; templates test: $(tail -1 "$work/templates.out")"

# demo: the libraries that git and the tests' Python (its modules, torch's) load stay.
dynload=$(python3 -c 'import sysconfig; print(sysconfig.get_config_var("DESTSHARED"))')
platlib=$(python3 -c 'import sysconfig; print(sysconfig.get_path("platlib"))')
{ command -v git; find "$dynload" "$platlib" -name '*.so*' -type f; } | xargs -r ldd 2>/dev/null |
  awk '$2 == "=>" {print $1}' | sort -u > "$work/tools.libs"
touch "$work/empty"
hide=""
hidden=()
for lib in $(ls "$package/lib"); do
  grep -qxF "$lib" "$work/tools.libs" && continue
  hidden+=("$lib")
  [[ -e "$libdir/$lib" ]] && hide+="mount --bind $work/empty $libdir/$lib && "
done
for lib in libgit2.so.1.5 libcurl.so.4 libre2.so.9 libyaml-cpp.so.0.7 libabsl_strings.so.20220623; do
  [[ " ${hidden[*]} " == *" $lib "* ]] || fail "demo: $lib, a library of the build's -dev packages, cannot be hidden"
done
# The checkout's data folders are hidden too (its Python, in .venv, runs the tests).
for data in templates api_history validators; do hide+="mount --bind $work/nothing $SRC/$data && "; done
hide+="true"
in_namespace "$hide" python3 -c 'import ctypes; ctypes.CDLL("libgit2.so.1.5")' 2> /dev/null &&
  fail "demo: the system's libgit2 still loads"

# The bug's test commands and world size, as scripts/demo.sh reads them.
{ read -r failing; read -r passing; read -r world; } < <(/usr/bin/python3 -c "import sys, yaml
d = yaml.safe_load(open(sys.argv[1])); print(d['tests']['failing'], d['tests']['passing'], d['world_size'], sep='\n')" "$BUG/bug.yaml")
set +e
in_namespace "$hide" "$smallfix" repair --repo "$work/repo" --issue "$work/issue.md" \
  --test "$failing" --test "$passing" --world-size "$world" --timeout 120 > "$work/demo.out" 2>&1
rc=$?
set -e
cat "$work/demo.out"
[[ $rc == 0 ]] || fail "demo: repair exited $rc"
grep -q "^plausible patch (guard.none-continue" "$work/demo.out" || fail "demo: no plausible guard.none-continue"
# The warm server ran from the package (without it the report notes that every run was cold).
! grep -q "warm server did not start" "$work/demo.out" || fail "demo: the package's warm server did not start"
echo "demo: plausible patch with the installed wheel, ${#hidden[@]} of $(ls "$package/lib" | wc -l) bundled libraries hidden from the system (${hidden[*]})"
