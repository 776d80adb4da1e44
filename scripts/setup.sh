#!/usr/bin/env bash
# Installs everything smallfix needs, fetches the pinned grammar sources and builds the CLI
# (build/smallfix) and what it links, not the test binaries: scripts/test.sh builds those.
# Idempotent: with nothing changed it takes seconds. With ccache on the machine (installed
# below) the compiles go through it, so a second clone or a rebuild reuses every object.
#
#   scripts/setup.sh            # release build in build/
#   PRESET=asan scripts/setup.sh   # ASan+UBSan build in build-asan/
set -euo pipefail
cd "$(dirname "$0")/.."
PRESET="${PRESET:-release}"

# Debian packages: toolchain, libraries, the Python side that validation runs
# (python3-torch with gloo for multi-rank tests, pytest, coverage), and Slurm with munge for
# the one-node cluster the Slurm runner's tests start (scripts/slurm-local.sh).
PACKAGES=(
  g++ cmake ninja-build pkg-config git ca-certificates nodejs npm
  libgit2-dev nlohmann-json3-dev libcurl4-openssl-dev libabsl-dev libre2-dev
  libyaml-cpp-dev libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-torch python3-pytest python3-coverage python3-yaml python3-packaging
  clang libclang-rt-14-dev clang-format ccache
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

# The project venv: the Python that tests and benchmarks run (torch 2.13.0 on the CPU and
# exact pins, scripts/python-lock.txt). torch goes first and alone, the rest without
# dependencies, so no package can make pip fetch another torch (a CUDA build of several GB).
venv_stamp=.venv/.smallfix-lock
if [[ ! -f "$venv_stamp" ]] || ! cmp -s scripts/python-lock.txt "$venv_stamp"; then
  echo "setup: making the project venv .venv (scripts/python-lock.txt)"
  rm -rf .venv
  "$(command -v python3.11 || command -v python3)" -m venv .venv
  .venv/bin/python -m pip install -q --disable-pip-version-check "$(grep -E '^torch==' scripts/python-lock.txt)"
  grep -vE '^(torch==|#)' scripts/python-lock.txt > .venv/rest.txt
  .venv/bin/python -m pip install -q --disable-pip-version-check --no-deps -r .venv/rest.txt
  cp scripts/python-lock.txt "$venv_stamp"
fi

BUILD_DIR=build
[[ "$PRESET" != release ]] && BUILD_DIR="build-$PRESET"
[[ -f "$BUILD_DIR/build.ninja" ]] || cmake --preset "$PRESET" >/dev/null
cmake --build --preset "$PRESET" -j "$(nproc)" --target smallfix
echo "setup: done, the CLI is $BUILD_DIR/smallfix"
