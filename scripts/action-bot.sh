#!/usr/bin/env bash
# The GitHub Action's repair step (action.yml): turns the inputs, passed as environment
# variables, into one `smallfix bot` command. Runs the smallfix on PATH.
set -euo pipefail
args=(bot --github "$REPOSITORY" --api "${API_URL:-https://api.github.com}"
      --author-name "smallfix[bot]" --author-email "smallfix-bot@users.noreply.github.com")
if [[ -n "${ISSUE:-}" ]]; then
  args+=(--issue "$ISSUE")
else
  args+=(--label "$LABEL" --limit "$LIMIT")
fi
if [[ -n "${TESTS:-}" && -z "${TEST:-}" ]]; then
  echo "smallfix action: 'tests' needs 'test' (the failing test command) too" >&2
  exit 2
fi
[[ -n "${TEST:-}" ]] && args+=(--test "$TEST")
while IFS= read -r line; do
  [[ -n "${line// /}" ]] && args+=(--test "$line")
done <<< "${TESTS:-}"
python="${PYTHON:-}"
[[ -n "$python" ]] || python=$(command -v python || command -v python3 || true)
[[ -n "$python" ]] && args+=(--python "$python")
[[ -n "${PR_LABEL:-}" ]] && args+=(--pr-label "$PR_LABEL")
[[ "${DRY_RUN:-false}" == true ]] && args+=(--dry-run)
exec smallfix "${args[@]}"
