#!/usr/bin/env bash
# Installs everything smallfix needs, fetches the pinned grammar sources and builds the CLI
# (build/smallfix) and what it links, not the test binaries: scripts/test.sh builds those.
# Idempotent: with nothing changed it takes seconds. With ccache on the machine (installed
# below) the compiles go through it, so a second clone or a rebuild reuses every object.
#
#   scripts/setup.sh            # release build in build/
#   PRESET=asan scripts/setup.sh   # ASan+UBSan build in build-asan/
#   SETUP=cli scripts/setup.sh      # the CLI alone: no test venv, Slurm, clang or Debian torch
#                                   # (the GitHub Action's install, action.yml)
set -euo pipefail
cd "$(dirname "$0")/.."
PRESET="${PRESET:-release}"
SETUP="${SETUP:-all}"

# Debian packages. What building and running the CLI needs: toolchain and libraries.
CLI_PACKAGES=(
  g++ cmake ninja-build pkg-config git ca-certificates nodejs npm
  libgit2-dev nlohmann-json3-dev libcurl4-openssl-dev libabsl-dev libre2-dev
  libyaml-cpp-dev libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev ccache
)
# The rest, for the tests and the demo: the Python side that validation runs (python3-torch
# with gloo for multi-rank tests, pytest, coverage; python3-venv for the project venv and the
# wheel's, scripts/wheel.sh), clang for the fuzz target, clang-format, and Slurm with munge
# for the one-node cluster the Slurm runner's tests start (scripts/slurm-local.sh).
PACKAGES=("${CLI_PACKAGES[@]}")
[[ "$SETUP" == cli ]] || PACKAGES+=(
  python3 python3-venv python3-torch python3-pytest python3-coverage python3-yaml python3-packaging
  clang libclang-rt-14-dev clang-format
  slurm-wlm munge
)

missing=()
for package in "${PACKAGES[@]}"; do
  # npm/node may come from elsewhere on the machine; only install them if absent.
  if [[ "$package" == npm || "$package" == nodejs ]]; then
    command -v "${package/nodejs/node}" >/dev/null 2>&1 && continue
  fi
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Grammar and runtime sources, pinned by package-lock.json; no install scripts run.
stamp=node_modules/.smallfix-lock
if [[ ! -f "$stamp" ]] || ! cmp -s package-lock.json "$stamp"; then
  echo "setup: fetching pinned tree-sitter sources (npm ci)"
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi

# The project venv: the Python that tests, benchmarks and the demo run (torch 2.13.0 on the CPU
# and exact pins, scripts/python-lock.txt). torch goes first and alone, the rest without
# dependencies, so no package can make pip fetch another torch (a CUDA build of several GB).
# It is made in the background while the CLI compiles: installing torch is minutes of its own.
make_venv() {
  rm -rf .venv
  "$(command -v python3.11 || command -v python3)" -m venv .venv
  .venv/bin/python -m pip install -q --disable-pip-version-check "$(grep -E '^torch==' scripts/python-lock.txt)"
  grep -vE '^(torch==|#)' scripts/python-lock.txt > .venv/rest.txt
  .venv/bin/python -m pip install -q --disable-pip-version-check --no-deps -r .venv/rest.txt
  cp scripts/python-lock.txt .venv/.smallfix-lock
}
venv_pid=""
if [[ "$SETUP" != cli ]] && ! cmp -s scripts/python-lock.txt .venv/.smallfix-lock 2>/dev/null; then
  venv_log=$(mktemp)
  echo "setup: making the project venv .venv in the background (scripts/python-lock.txt)"
  make_venv > "$venv_log" 2>&1 &
  venv_pid=$!
  # A failed build ends the script; the half-made venv has no stamp and is made again next time.
  trap 'kill "$venv_pid" 2>/dev/null || true; rm -f "$venv_log"' EXIT
fi

BUILD_DIR=build
[[ "$PRESET" != release ]] && BUILD_DIR="build-$PRESET"
[[ -f "$BUILD_DIR/build.ninja" ]] || cmake --preset "$PRESET" >/dev/null
cmake --build --preset "$PRESET" -j "$(nproc)" --target smallfix
if [[ -n "$venv_pid" ]]; then
  echo "setup: waiting for the project venv"
  wait "$venv_pid" || { cat "$venv_log" >&2; echo "setup: making .venv failed" >&2; exit 1; }
fi
echo "setup: done, the CLI is $BUILD_DIR/smallfix"
