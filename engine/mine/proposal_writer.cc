#include "engine/mine/proposal_writer.h"

#include <filesystem>
#include <fstream>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"

namespace smallfix::mine {
namespace {

// Proposals are for people to review: the biggest clusters are enough.
constexpr size_t kMaxProposals = 50;

// Placeholders back to plain code: $A -> a, $N -> 1, $S -> "x".
std::string Concrete(const std::string& abstract) {
  std::string out;
  for (size_t i = 0; i < abstract.size(); ++i) {
    if (abstract[i] != '$' || i + 1 >= abstract.size()) {
      out += abstract[i];
      continue;
    }
    const char c = abstract[++i];
    std::string digits;
    while (i + 1 < abstract.size() && isdigit(static_cast<unsigned char>(abstract[i + 1])))
      digits += abstract[++i];
    if (c == 'N' && digits.empty()) {
      out += "1";
    } else if (c == 'S' && digits.empty()) {
      out += "\"x\"";
    } else {
      out += static_cast<char>(tolower(c));
      out += digits;
      if (c == 'N' || c == 'S') out += "_";  // $N1/$S1 are names, not literals
    }
  }
  // "; " joined statements back to lines.
  return absl::StrReplaceAll(out, {{"; ", "\n"}});
}

// An operator or keyword token that a query can name as an anonymous node.
bool IsOperator(const std::string& token) {
  static const auto* const kTokens =
      new absl::flat_hash_set<std::string>{"<",  "<=",  ">", ">=", "==", "!=", "is", "in", "and",
                                           "or", "not", "+", "-",  "*",  "/",  "//", "%"};
  return kTokens->contains(token);
}

std::string Indent(const std::string& code, const std::string& prefix) {
  std::string out;
  for (const std::string& line : std::vector<std::string>(absl::StrSplit(code, '\n')))
    absl::StrAppend(&out, prefix, line, "\n");
  return out;
}

// A YAML block scalar: the text indented under its key.
std::string Block(const std::string& text, int indent) {
  std::string out = "|\n";
  for (const std::string& line : std::vector<std::string>(absl::StrSplit(text, '\n'))) {
    if (line.empty()) continue;
    absl::StrAppend(&out, std::string(indent, ' '), line, "\n");
  }
  return out;
}

std::string Quote(const std::string& text) {
  return absl::StrCat("\"", absl::StrReplaceAll(text, {{"\\", "\\\\"}, {"\"", "\\\""}}), "\"");
}

}  // namespace

std::string DraftTemplate(const Cluster& cluster, int rank) {
  const AbstractEdit& edit = cluster.hunks.front().edits.front();
  std::string query, rewrite, before_body, after_body;
  const std::string anchor = "use(a)";
  if (edit.kind == "change" && IsOperator(edit.before) && IsOperator(edit.after)) {
    query = absl::StrCat("(\"", edit.before, "\" @op)\n");
    rewrite =
        absl::StrCat("  - action: replace\n    target: op\n    with: ", Quote(edit.after), "\n");
  } else if (edit.kind == "insert" && edit.where.rfind("before a statement", 0) == 0) {
    rewrite = absl::StrCat("  - action: insert-before\n    code: ", Block(Concrete(edit.after), 6));
  } else {
    // No plain rewrite for this shape yet: a no-op a reviewer replaces.
    rewrite = "  - action: replace\n    with: \"{statement}\"  # TODO: write the rewrite\n";
  }
  if (edit.kind == "insert" && edit.where.rfind("before a statement", 0) == 0) {
    before_body = anchor;
    after_body = absl::StrCat(Concrete(edit.after), "\n", anchor);
  } else if (edit.kind == "insert") {
    before_body = anchor;
    after_body = absl::StrCat(anchor, "  # then: ", Concrete(edit.after));
  } else if (edit.kind == "delete") {
    before_body = absl::StrCat(Concrete(edit.before), "\n", anchor);
    after_body = anchor;
  } else {
    before_body = absl::StrCat("return ", Concrete(edit.before));
    after_body = absl::StrCat("return ", Concrete(edit.after));
  }
  std::string yaml = absl::StrCat("# DRAFT written by `smallfix mine` from a cluster of ",
                                  cluster.hunks.size(), " hunks in ", cluster.commits,
                                  " commits.\n# Unreviewed: check the query, the rewrite and the "
                                  "examples before moving it into templates/.\n",
                                  "# Shape: ", cluster.shape, "\n# Seen in:");
  for (size_t i = 0; i < cluster.hunks.size() && i < 3; ++i) {
    absl::StrAppend(&yaml, " ", cluster.hunks[i].sha.substr(0, 10), " ", cluster.hunks[i].file, ":",
                    cluster.hunks[i].line,
                    i + 1 < std::min<size_t>(cluster.hunks.size(), 3) ? "," : "");
  }
  absl::StrAppend(&yaml, "\nid: generic.mined-", rank, "\nfamily: generic\nsummary: ",
                  Quote(absl::StrCat("DRAFT (mined): ", cluster.shape)), "\nprior: 0.1\n");
  if (!query.empty()) absl::StrAppend(&yaml, "query: ", Block(query, 2));
  absl::StrAppend(&yaml, "rewrite:\n", rewrite, "examples:\n");
  absl::StrAppend(
      &yaml, "  - name: the mined shape\n    line: 2\n    before: ",
      Block(absl::StrCat("def f(a, b, c):\n", Indent(before_body, "    ")), 6),
      "    after: ", Block(absl::StrCat("def f(a, b, c):\n", Indent(after_body, "    ")), 6));
  absl::StrAppend(&yaml, "  - name: nothing to change\n    line: 2\n    before: ",
                  Block("def f():\n    pass\n", 6), "    after: null\n");
  return yaml;
}

absl::StatusOr<std::vector<std::string>> WriteProposals(const std::vector<Cluster>& clusters,
                                                        const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    return absl::InvalidArgumentError(
        absl::StrCat("cannot create --propose ", dir, ": ", error.message()));
  std::vector<std::string> written;
  for (size_t i = 0; i < clusters.size() && i < kMaxProposals; ++i) {
    if (clusters[i].hunks.size() < 2) break;
    const std::string path =
        (std::filesystem::path(dir) / absl::StrCat("mined_", i + 1, ".yaml")).string();
    std::ofstream out(path, std::ios::binary);
    out << DraftTemplate(clusters[i], static_cast<int>(i + 1));
    if (!out) return absl::InternalError(absl::StrCat("cannot write ", path));
    written.push_back(path);
  }
  return written;
}

}  // namespace smallfix::mine
