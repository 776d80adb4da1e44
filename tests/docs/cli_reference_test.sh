#!/usr/bin/env bash
# docs/cli.md documents every command and every flag that `smallfix <command> --help` lists,
# each in that command's section, and no flag the command does not have.
# Usage: cli_reference_test.sh SMALLFIX SOURCE_DIR
set -uo pipefail
smallfix="${1:?usage: cli_reference_test.sh SMALLFIX SOURCE_DIR}"
doc="${2:?usage: cli_reference_test.sh SMALLFIX SOURCE_DIR}/docs/cli.md"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The names listed under "Subcommands:" in a help text.
subcommands() { sed -n '/^Subcommands:/,$p' | grep -oE '^  [a-z]+' | tr -d ' '; }
# The long flags of a help text's options, --help left out.
help_flags() { grep -oE '^  (-[a-zA-Z],)?--[a-z0-9-]+' | sed -E 's/^ *(-[a-zA-Z],)?//' | grep -vx -- --help; }
# The lines of docs/cli.md under the heading "$1" up to the next heading (a "#" inside a code
# block is a comment, not a heading).
section() { awk -v h="$1" '/^(```|~~~)/ { code = !code } !code && /^#/ { on = ($0 == h); next } on' "$doc"; }
# The flags of a section's table rows: | `--flag TYPE` | ... |
doc_flags() { grep -oE '^\| `(-[a-zA-Z],)?--[a-z0-9-]+' | sed -E 's/^\| `(-[a-zA-Z],)?//'; }

check() {  # check "HEADING" COMMAND...
  local heading="$1"
  shift
  local helped documented
  helped=$("$smallfix" "$@" --help | help_flags | sort -u)
  documented=$(section "$heading" | doc_flags | sort -u)
  [[ -n "$(section "$heading")" ]] || { fail "docs/cli.md has no section '$heading'"; return; }
  for flag in $(comm -23 <(echo "$helped") <(echo "$documented")); do
    fail "smallfix $* has $flag; '$heading' in docs/cli.md does not document it"
  done
  for flag in $(comm -13 <(echo "$helped") <(echo "$documented")); do
    fail "'$heading' in docs/cli.md documents $flag; smallfix $* has no such flag"
  done
}

commands=$("$smallfix" --help | subcommands)
[[ -n "$commands" ]] || fail "smallfix --help lists no subcommands"
for command in $commands; do
  children=$("$smallfix" "$command" --help | subcommands)
  if [[ -z "$children" ]]; then
    check "## $command" "$command"
  else
    [[ -n "$(section "## $command")" ]] || fail "docs/cli.md has no section '## $command'"
    for child in $children; do check "### $command $child" "$command" "$child"; done
  fi
done
((failures == 0)) || { echo "$failures problem(s)"; exit 1; }
echo "docs/cli.md documents every flag of: $(echo $commands)"
