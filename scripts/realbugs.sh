#!/usr/bin/env bash
# The real-bug benchmark's venvs and trees (benchmarks/realbugs/README.md):
#
#   scripts/realbugs.sh setup [--project P]... [--bug ID]... [--env E]...   # the pinned venvs
#   scripts/realbugs.sh tree --bug ID --side buggy|fixed --dest DIR          # one tree
#
# Venvs live in ${SMALLFIX_REALBUGS_CACHE:-~/.cache/smallfix/realbugs}/venvs/<env>, one per
# project era, made from benchmarks/realbugs/envs/<env>.txt (torch==2.13.0 first, then every
# other pin without dependencies); a venv whose lock file did not change is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/realbugs.py "$@"
