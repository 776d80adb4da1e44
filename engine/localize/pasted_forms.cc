#include "engine/localize/pasted_forms.h"

#include <re2/re2.h>

#include <utility>

namespace smallfix {
namespace {

constexpr std::string_view kHeader = "Traceback (most recent call last):";

std::string_view Trim(std::string_view text) {
  const size_t start = text.find_first_not_of(" \t");
  if (start == std::string_view::npos) return {};
  const size_t end = text.find_last_not_of(" \t");
  return text.substr(start, end - start + 1);
}

std::string Frame(std::string_view path, std::string_view line, std::string_view function) {
  std::string out = "  File \"";
  out.append(path).append("\", line ").append(line).append(", in ");
  out.append(function.empty() ? std::string_view("<module>") : function);
  return out;
}

}  // namespace

struct PastedForms::Patterns {
  // The function may be on the next row: rich wraps at spaces.
  RE2 rich_frame{R"re((\S*?):(\d+) in(?: (\S+))?)re"};
  RE2 rich_source{R"re((?:❱\s*)?\d+\s*│.*)re"};
  RE2 ipython_header{R"re([A-Za-z_][\w.]*\s{2,}Traceback \(most recent call last\)\s*)re"};
  RE2 ipython_cell{R"re(Cell In\s*\[\d*\],? line (\d+).*)re"};
  RE2 ipython_file{R"re(File (\S.*?):(\d+)(?:, in ([^\s(]+).*)?)re"};
  RE2 ipython_old{R"re((\S+\.py|<ipython-input-[^>]*>) in ([^\s(]+)\(.*)re"};
  RE2 colab{R"re(\[(\S+?\.py)\]\([^)]*\) in ([^\s(]+)\(.*)re"};
  RE2 marker{R"re(-{1,4}> ?(\d+)(.*))re"};
  RE2 elastic{R"re(\s*traceback\s*:\s*Traceback \(most recent call last\):\s*)re"};
};

PastedForms::PastedForms() : patterns_(std::make_unique<Patterns>()) {}
PastedForms::~PastedForms() = default;

// rich's traceback panel: its corners and rows.
bool PastedForms::RewriteRich(State& state, std::string_view trimmed,
                              std::vector<std::string>* out) {
  const Patterns& p = *patterns_;
  std::string a, b, c;
  if (trimmed.starts_with("╭")) {
    if (trimmed.find("Traceback") != std::string_view::npos) {
      state.in_box = true;
      state.fragment.clear();
      used_ = true;
      out->emplace_back(kHeader);
      return true;
    }
  } else if (trimmed.starts_with("╰")) {
    if (state.in_box) {
      state.in_box = false;
      return true;
    }
  } else if (state.in_box && trimmed.starts_with("│")) {
    std::string_view row = trimmed.substr(std::string_view("│").size());
    if (row.ends_with("│")) row.remove_suffix(std::string_view("│").size());
    row = Trim(row);
    if (row.empty()) {  // spacing rows end a frame header
      state.fragment.clear();
      return true;
    }
    if (RE2::FullMatch(row, p.rich_source)) {
      state.fragment.clear();
      out->push_back("    " + std::string(row));  // source context: indented like Python's
      return true;
    }
    // A frame header, possibly wrapped over rows: inside the path, inside "in", or before
    // the function name (rich wraps at spaces when it can, else anywhere).
    for (const std::string& header :
         {state.fragment + std::string(row), state.fragment + " " + std::string(row)}) {
      if (RE2::FullMatch(header, p.rich_frame, &a, &b, &c) && !a.empty()) {
        out->push_back(Frame(a, b, c));
        state.fragment.clear();
        return true;
      }
      if (state.fragment.empty()) break;
    }
    state.fragment.append(row);
    if (state.fragment.size() > 1024) state.fragment.clear();  // not a frame header
    return true;
  }
  return false;
}

// IPython's and Colab's tracebacks (lines that start at the margin).
bool PastedForms::RewriteIPython(State& state, std::string_view text,
                                 std::vector<std::string>* out) {
  const Patterns& p = *patterns_;
  std::string a, b, c;
  if (RE2::FullMatch(text, p.ipython_header)) {
    used_ = true;
    state.pending_path.clear();
    out->emplace_back(kHeader);
    return true;
  }
  if (text.starts_with("Cell In") && RE2::FullMatch(text, p.ipython_cell, &b)) {
    used_ = true;
    out->push_back(Frame("<ipython-cell>", b, "<module>"));
    return true;
  }
  if (text.starts_with("File ") && text.size() > 5 && text[5] != '"' &&
      RE2::FullMatch(text, p.ipython_file, &a, &b, &c)) {
    used_ = true;
    out->push_back(Frame(a, b, c));
    return true;
  }
  if ((text[0] == '[' && RE2::FullMatch(text, p.colab, &a, &c)) ||
      (text.find(".py in ") != std::string_view::npos || text.starts_with("<ipython-input")) &&
          RE2::FullMatch(text, p.ipython_old, &a, &c)) {
    used_ = true;
    state.pending_path = a;
    state.pending_function = c;
    return true;
  }
  if (text[0] == '-' && RE2::FullMatch(text, p.marker, &b, &c)) {
    if (!state.pending_path.empty()) {
      out->push_back(Frame(state.pending_path, b, state.pending_function));
      state.pending_path.clear();
    }
    out->push_back("    " + std::string(Trim(c)));
    return true;
  }
  return false;
}

void PastedForms::Rewrite(int stream, std::string_view text, std::vector<std::string>* out) {
  const Patterns& p = *patterns_;
  State& state = states_[stream];
  const std::string_view trimmed = Trim(text);
  if (RewriteRich(state, trimmed, out)) return;
  // loguru marks the innermost frame with "> ".
  if (trimmed.starts_with("> File \"")) {
    used_ = true;
    out->push_back("  " + std::string(trimmed.substr(2)));
    return;
  }
  // torchrun's report: the root cause's traceback after "traceback :".
  if ((trimmed.starts_with("traceback") || trimmed.starts_with("Traceback :")) &&
      RE2::FullMatch(text, p.elastic)) {
    used_ = true;
    out->emplace_back(kHeader);
    return;
  }

  if (!text.empty() && text[0] != ' ' && text[0] != '\t' && RewriteIPython(state, text, out)) {
    return;
  }
  out->emplace_back(text);
}

bool IsCutFrameLine(std::string_view line) {
  const std::string_view trimmed = Trim(line);
  if (!trimmed.starts_with("File \"")) return false;
  const size_t close = trimmed.find("\", line ", 6);
  if (close == std::string_view::npos) return true;
  // `File "p", line` cut in the number: digits must follow and the line must go on.
  const std::string_view rest = trimmed.substr(close + 8);
  return rest.empty();
}

bool IsCompleteFrameLine(std::string_view line) {
  static const RE2* const frame = new RE2(R"re(\s*File "[^"]*", line \d+(?:, in \S.*)?)re");
  return RE2::FullMatch(line, *frame);
}

}  // namespace smallfix
