#ifndef SMALLFIX_ENGINE_LOCALIZE_PASTED_FORMS_H_
#define SMALLFIX_ENGINE_LOCALIZE_PASTED_FORMS_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace smallfix {

// Rewrites the traceback forms that other printers produce into the plain lines Python
// prints, so that one parser reads them all:
//   rich / accelerate    "╭── Traceback (most recent call last) ──╮", "│ /p/x.py:41 in f │"
//                        (a path too long for the box continues on the next row)
//   loguru (diagnose)    "> File \"/p/x.py\", line 41, in f" marks the innermost frame
//   IPython 8            "KeyError    Traceback (most recent call last)", "Cell In[3], line 5",
//                        "File /p/x.py:41, in f(a, b)"
//   IPython 7, Colab     "/p/x.py in f(a, b)", "[/p/x.py](https://localhost:8080/#) in f(a)",
//                        with the line number only in the "---> 41" marker that follows
//   torchrun's report    "  traceback : Traceback (most recent call last):" (the root cause)
// Lines of no such form pass through unchanged. One instance reads one input; each output
// stream (rank) keeps its own state, since forms span several lines.
class PastedForms {
 public:
  PastedForms();
  ~PastedForms();
  PastedForms(const PastedForms&) = delete;
  PastedForms& operator=(const PastedForms&) = delete;

  // Appends to `out` the plain lines that `text` (one line of `stream`, prefixes removed)
  // stands for: usually the line itself, nothing for box rows that only continue a path.
  void Rewrite(int stream, std::string_view text, std::vector<std::string>* out);

  // True when some line was read in one of the forms above.
  bool used() const { return used_; }

 private:
  struct Patterns;
  // Per stream: inside a rich box, a path fragment from earlier box rows, an IPython frame
  // header still waiting for its "--->" line number.
  struct State {
    bool in_box = false;
    std::string fragment;
    std::string pending_path;
    std::string pending_function;
  };
  // Each rewrites its printer's lines; false when `text` is none of them.
  bool RewriteRich(State& state, std::string_view trimmed, std::vector<std::string>* out);
  bool RewriteIPython(State& state, std::string_view text, std::vector<std::string>* out);

  std::unique_ptr<const Patterns> patterns_;
  std::map<int, State> states_;
  bool used_ = false;
};

// True when `line` begins a traceback frame ("File \"...") that a hard wrap cut before its
// `", line N` part, so that the next line continues it.
bool IsCutFrameLine(std::string_view line);

// True when `line` is a whole frame line: `File "p", line N` with an optional `, in f`.
// A hard wrap may also cut a frame line after its number or inside its function name, so
// that it still looks whole; ParseFailureText then joins it only when it is as long as the
// longest line so far (the wrap width) and the next line starts in column 0 and completes it.
bool IsCompleteFrameLine(std::string_view line);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_PASTED_FORMS_H_
