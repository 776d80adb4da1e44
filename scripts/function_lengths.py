#!/usr/bin/env python3
"""Reports C++ functions whose bodies run longer than a limit (80 lines by default).

    scripts/function_lengths.py                       # engine/ and validators/, limit 80
    scripts/function_lengths.py --max 60 engine/scan  # other folders or files, another limit
    scripts/function_lengths.py --allow scripts/long_functions.txt

How it counts. A small lexer reads each .cc and .h file and drops comments, string and
character literals (raw strings too) and preprocessor lines, so that a brace inside any of
them counts for nothing. A `{` met outside any function starts a function body when the
tokens since the previous `;`, `{` or `}` hold a parameter list `( ... )` and neither an `=`
outside brackets (a braced initializer: tables are data) nor the keywords namespace, class,
struct, union or enum before that list. Everything up to its matching `}` is that function:
lambdas and local classes inside it count towards it. A body's length is the line of its
closing brace minus the line of its opening brace, as clang-tidy's readability-function-size
counts lines: a one-line body `{ return x; }` is 0, a body of 80 lines between its braces is 81.
A function is too long when its length is over the limit.

Exit status: 0 when every function is within the limit (or on the allow-list), 1 when not,
2 on bad arguments. The allow-list names one function a line, `path:name`, `#` comments.
"""
import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TYPE_KEYWORDS = {"namespace", "class", "struct", "union", "enum"}


def tokens(text):
    """Yields (token, line) for the code of `text`: no comments, literals or preprocessor lines.

    A string or character literal becomes the token '""' so that headers stay readable."""
    i, line, n = 0, 1, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            at_line_start = True
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if at_line_start and c == "#":  # a preprocessor line, with its continuations
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    line += 1
                    i += 1
                i += 1
            continue
        at_line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            line += text.count("\n", i, end)
            i = end
            continue
        raw = re.match(r'(?:u8|u|U|L)?R"([^()\\ ]{0,16})\(', text[i:i + 24])
        if raw:
            close = ")" + raw.group(1) + '"'
            end = text.find(close, i + raw.end())
            end = n if end < 0 else end + len(close)
            line += text.count("\n", i, end)
            i = end
            yield '""', line
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            yield '""', line
            continue
        word = re.match(r"[A-Za-z_]\w*|\d[\w.']*", text[i:i + 256])
        if word:
            i += word.end()
            yield word.group(0), line
            continue
        i += 1
        yield c, line


def function_name(header):
    """The name before the parameter list of a definition's tokens, `Class::Name` kept."""
    if "operator" in header:
        k = header.index("operator")
        end = header.index("(", k + 2) if header[k + 1] == "(" else header.index("(", k)
        return "operator" + "".join(header[k + 1:end])
    depth = 0
    for k, tok in enumerate(header):
        if tok == "(" and depth == 0 and k > 0:
            parts = [header[k - 1]]
            j = k - 2
            while j >= 2 and header[j] == ":" and header[j - 1] == ":":
                parts.insert(0, header[j - 2])
                j -= 3
            if j >= 0 and header[j] == "~":
                parts[-1] = "~" + parts[-1]
            return "::".join(parts)
        if tok in "([":
            depth += 1
        elif tok in ")]":
            depth -= 1
    return "?"


def classify(header):
    """What a `{` after `header` (at namespace or class scope) opens: "function" (its body),
    "member-init" (a braced member initializer of a constructor's init list), "data" (a braced
    initializer) or "scope" (a namespace, class or other scope)."""
    depth = 0
    saw_params = closed_params = in_init_list = False
    operator = False
    for k, tok in enumerate(header):
        if tok == "operator":
            operator = True
        if tok in TYPE_KEYWORDS and not saw_params:
            return "scope"
        if tok in "([":
            if tok == "(" and depth == 0:
                saw_params = True
                operator = False
            depth += 1
        elif tok in ")]":
            depth -= 1
            closed_params = closed_params or (depth == 0 and saw_params)
        elif tok == "=" and depth == 0 and not operator:
            return "data"
        elif (tok == ":" and depth == 0 and closed_params and header[k - 1] != ":"
              and (k + 1 == len(header) or header[k + 1] != ":")):
            in_init_list = True
    if not saw_params:
        return "scope"
    if in_init_list and header and header[-1] not in (")", "}"):
        return "member-init"
    return "function"


def functions(path):
    """Yields (name, first line, length) for each function defined in the file at `path`."""
    header = []
    skip_to = None  # (depth, where to) while skipping a braced initializer
    body = None  # (name, line of `{`) while inside a function
    depth = 0
    for tok, line in tokens(path.read_text(errors="replace")):
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
        if body is not None:
            if tok == "}" and depth == body[2]:
                yield body[0], body[1], line - body[1]
                body, header = None, []
            continue
        if skip_to is not None:
            if tok == "}" and depth == skip_to:
                skip_to = None
                header.append("}")  # a member initializer: the header goes on
            continue
        if tok == "{":
            kind = classify(header)
            if kind == "function":
                body = (function_name(header), line, depth - 1)
            elif kind in ("data", "member-init"):
                skip_to = depth - 1
            else:
                header = []
        elif tok in ";}":
            header = []
        else:
            header.append(tok)


def source_files(paths):
    for given in paths:
        p = (ROOT / given) if not pathlib.Path(given).is_absolute() else pathlib.Path(given)
        if p.is_file():
            yield p
        elif p.is_dir():
            yield from sorted(f for f in p.rglob("*") if f.suffix in (".cc", ".h") and f.is_file())
        else:
            sys.exit(f"function_lengths: no such file or folder: {given}")


def read_allow_list(path):
    allowed = set()
    for raw in pathlib.Path(path).read_text().splitlines():
        entry = raw.split("#", 1)[0].strip()
        if entry:
            allowed.add(entry)
    return allowed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", default=["engine", "validators"])
    parser.add_argument("--max", type=int, default=80, help="longest body allowed, in lines")
    parser.add_argument("--allow", help="file of path:name entries that may stay longer")
    parser.add_argument("--all", action="store_true", help="list every function with its length")
    args = parser.parse_args()
    if args.max < 1:
        parser.error("--max must be at least 1")
    allowed = read_allow_list(args.allow) if args.allow else set()
    seen_allowed = set()
    over = 0
    for path in source_files(args.paths):
        rel = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        for name, line, length in functions(path):
            if args.all:
                print(f"{length:5d} {rel}:{line} {name}")
            if length <= args.max:
                continue
            key = f"{rel}:{name}"
            if key in allowed:
                seen_allowed.add(key)
                continue
            over += 1
            if not args.all:
                print(f"{rel}:{line}: {name} is {length} lines (limit {args.max})")
    for stale in sorted(allowed - seen_allowed):
        print(f"function_lengths: allow-list entry {stale} is no longer needed; remove it")
    if over:
        print(f"function_lengths: {over} function(s) over {args.max} lines")
    return 1 if over or (allowed - seen_allowed) else 0


if __name__ == "__main__":
    sys.exit(main())
