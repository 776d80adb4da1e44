#!/usr/bin/env python3
"""What limits the engine on realfix's dev split: ranking, or what the generator can write.

Reads the fixes file, the mirrors (bare git dirs, as `bench --realfix --mirror-root` takes them)
and one `smallfix bench --realfix --split dev --max-candidates 0 --json FILE` result, and prints
three tables:

  ranking    fixes whose upstream fix is anywhere among the candidates, against those in the
             first 1 and 5: when the two are close, better ranking cannot help and only new
             candidates can;
  edit size  each fix's change as Python tokens (difflib over the parent and fixed files'
             token streams, comments and blank lines left out): how many tokens it touches
             and whether it writes a token that appears nowhere in the parent file (a name,
             literal or keyword the file lacks), split by whether the engine has it;
  donors     for the fixes the engine misses, whether every line the fix adds already exists
             (stripped) in the parent file, elsewhere in the repo (`git grep` at the parent
             commit), partly, or nowhere: the material a copy-from-similar-code operator has.

Dev only: the test split measures the engine and nobody reads its diffs.

Usage:
  scripts/realfix_headroom.py --results dev-all.json [--fixes benchmarks/realfix/fixes.jsonl]
                              [--mirror-root /work/.mirror]
"""
import argparse
import collections
import difflib
import io
import json
import pathlib
import subprocess
import sys
import tokenize

SKIPPED_TOKENS = (tokenize.COMMENT, tokenize.NL, tokenize.ENDMARKER, tokenize.INDENT, tokenize.DEDENT,
                  tokenize.NEWLINE)
TRIVIAL_LINES = {")", "]", "}", "else:", "try:", "pass", "return"}


def git(git_dir, *args):
    return subprocess.run(["git", "--git-dir", str(git_dir), *args], capture_output=True, text=True,
                          errors="replace").stdout


def git_dir_of(mirror_root, repo):
    for candidate in (mirror_root / repo.replace("/", "+") / "repo", mirror_root / repo):
        if candidate.is_dir():
            return candidate
    return None


def tokens(source):
    """The file's significant tokens, or None when it does not tokenize."""
    try:
        return [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline)
                if t.type not in SKIPPED_TOKENS]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None


def edit_shape(before, after):
    """('<=2' | '<=4' | '<=8' | '>8', writes_new_token) of the token-level edit."""
    ops = [op for op in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes()
           if op[0] != "equal"]
    size = sum(max(i2 - i1, j2 - j1) for _, i1, i2, j1, j2 in ops)
    vocabulary = set(before)
    new = any(t not in vocabulary for _, _, _, j1, j2 in ops for t in after[j1:j2])
    bucket = "<=2" if size <= 2 else "<=4" if size <= 4 else "<=8" if size <= 8 else ">8"
    return bucket, new


def added_lines(git_dir, fix):
    diff = git(git_dir, "diff", "-U0", fix["parent_commit"], fix["fix_commit"], "--", fix["file"])
    lines = [l[1:].strip() for l in diff.splitlines() if l.startswith("+") and not l.startswith("+++")]
    return [l for l in lines if len(l) > 6 and not l.startswith("#") and l not in TRIVIAL_LINES]


def donor_class(git_dir, fix, parent_source):
    lines = added_lines(git_dir, fix)
    if not lines:
        return "adds no line of its own"
    in_file = {l.strip() for l in parent_source.splitlines()}
    if all(l in in_file for l in lines):
        return "every added line is in the file"
    found = sum(1 for l in lines if l in in_file or
                git(git_dir, "grep", "-F", "-l", "-e", l, fix["parent_commit"], "--", "*.py"))
    if found == len(lines):
        return "every added line is in the repo"
    return "some added lines are in the repo" if found else "no added line is anywhere"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", required=True, help="bench --realfix --split dev --max-candidates 0 --json")
    parser.add_argument("--fixes", default="benchmarks/realfix/fixes.jsonl")
    parser.add_argument("--mirror-root", default="/work/.mirror")
    args = parser.parse_args()

    results = json.loads(pathlib.Path(args.results).read_text())
    if results.get("split") not in ("dev", None) or any(f.get("split") != "dev" for f in results["fixes"]):
        sys.exit("realfix_headroom: give a dev-split result (--split dev); the test split is not read")
    rank = {f["id"]: f["without_symptom"].get("rank") for f in results["fixes"]}
    fixes = [json.loads(l) for l in pathlib.Path(args.fixes).read_text().splitlines() if l.strip()]
    fixes = [f for f in fixes if f["split"] == "dev" and f["id"] in rank]
    mirror_root = pathlib.Path(args.mirror_root)

    anywhere = sum(1 for r in rank.values() if r is not None)
    print(f"ranking: {len(rank)} dev fixes; the fix among the candidates {anywhere}, "
          f"first {sum(1 for r in rank.values() if r == 1)}, in the first five "
          f"{sum(1 for r in rank.values() if r is not None and r <= 5)}")

    shapes = collections.Counter()
    donors = collections.Counter()
    skipped = 0
    for fix in fixes:
        git_dir = git_dir_of(mirror_root, fix["repo"])
        if git_dir is None:
            skipped += 1
            continue
        parent = git(git_dir, "show", f"{fix['parent_commit']}:{fix['file']}")
        before, after = tokens(parent), tokens(git(git_dir, "show", f"{fix['fix_commit']}:{fix['file']}"))
        if before is None or after is None:
            skipped += 1
            continue
        found = rank[fix["id"]] is not None
        bucket, new = edit_shape(before, after)
        shapes[(bucket, new, found)] += 1
        if not found:
            donors[donor_class(git_dir, fix, parent)] += 1

    print("\nedit size (tokens) | writes a token the file lacks | fixes | engine has the fix")
    for bucket in ("<=2", "<=4", "<=8", ">8"):
        for new in (False, True):
            total = shapes[(bucket, new, False)] + shapes[(bucket, new, True)]
            print(f"{bucket:>4} | {'yes' if new else 'no ':3} | {total:4} | {shapes[(bucket, new, True)]:4}")
    print(f"\nmissed fixes by where the added lines exist ({sum(donors.values())}):")
    for name, count in donors.most_common():
        print(f"  {count:4}  {name}")
    if skipped:
        print(f"\n{skipped} fixes skipped (no mirror, or a file that does not tokenize)")


if __name__ == "__main__":
    main()
