#ifndef SMALLFIX_ENGINE_PATTERNS_TEMPLATE_H_
#define SMALLFIX_ENGINE_PATTERNS_TEMPLATE_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/source/query.h"

namespace re2 {
class RE2;
}

namespace smallfix {

struct LookupSpec;
struct RuntimeFacts;

// The rewrite actions a template may name (`action:`); rewriter.cc's table gives each its
// YAML name, its arguments and the function that applies it.
enum class ActionKind {
  kInsertBefore,
  kInsertAfter,
  kReplace,
  kRemove,
  kWrapIf,
  kWrapTry,
  kWrapWith,
  kAddKeyword,
  kDropKeyword,
  kRenameKeyword,
  kAddArgument,
  kDropArgument,
  kDropParameter,
  kAddParameter,
  kSetDefault,
  kAddImport,
  kPlaceImport,
};

// A fix-pattern template, loaded from one YAML file under templates/ (see
// templates/README.md for the language). Templates are data: this struct is what the
// loader checked, nothing more.
struct Template {
  // Which failures the template answers. A symptom matches when every given part does:
  // the exception type, the message regex (its named groups become placeholders) and the
  // symptom class from localization.
  struct Symptom {
    std::string type;
    std::shared_ptr<const re2::RE2> message;
    std::string symptom_class;
  };

  // A check on the match: a capture's text (after placeholders) equals / matches / is one
  // of, or the site is (not) inside a node of some type.
  struct Condition {
    enum class Kind { kEquals, kNotEquals, kMatches, kNotMatches, kInside, kNotInside };
    Kind kind;
    std::string capture;  // for the text checks
    std::string value;    // text with placeholders, regex, or node types ("a|b")
    int line = 0;         // in the YAML file, for messages
  };

  // A context look-up the C++ side answers (a row of lookups/table.cc); it binds
  // placeholders or rejects.
  struct Lookup {
    const LookupSpec* spec = nullptr;
    std::map<std::string, std::string> args;  // as written, placeholders unexpanded
    std::vector<std::string> binds;           // placeholder names it defines
    int line = 0;
  };

  // One edit of the rewrite.
  struct Action {
    ActionKind kind = ActionKind::kReplace;
    std::map<std::string, std::string> args;  // as written, placeholders unexpanded
    int line = 0;
  };

  struct Example {
    std::string name;
    std::string symptom;  // "Type: message"
    std::string before;
    int line = 0;                              // 1-based fault line in `before`
    std::optional<std::string> after;          // nullopt: the template must not apply
    std::map<std::string, std::string> files;  // other files of the example repo (path -> text)
    // What the failing run knew (`facts:`, the capture's JSON): for templates whose look-ups
    // read it. Null: the example has no runtime facts.
    std::shared_ptr<const RuntimeFacts> facts;
  };

  // The optional `scan:` stanza: how `smallfix scan` uses the template to flag a latent bug
  // in a whole repo, with no failure to start from (templates/README.md, "Scanning").
  struct Scan {
    struct Example {
      std::string name;
      std::string code;
      std::vector<int> lines;  // 1-based lines a finding must be on; empty: none
      int line = 0;            // in the YAML file, for messages
    };
    std::string message;  // what a finding says
    // RE2 over a file's text: a file without a match is not parsed. It may name the
    // API-history table's removed APIs as {removed_apis}, which the scanner expands.
    std::string filter;
    // What the filter reads: "file" (the whole text) or "def-signatures" (only the
    // parameter lists of defs, cut out by a lexer that knows strings and comments).
    std::string filter_over = "file";
    std::optional<Query> query;               // replaces the template's query; runs over the module
    std::string site;                         // the capture whose statement is the finding's site
    std::map<std::string, std::string> bind;  // placeholders a failure would give, from captures
    std::vector<Condition> conditions;        // checked after the look-ups
    std::vector<Example> examples;
  };

  std::string id;      // "guard.none-continue"
  std::string family;  // guard | param | compat | generic
  std::string summary;
  std::string file;    // the YAML file it came from
  double prior = 0.5;  // how common the strategy is in the frameworks' bug histories, 0..1
  // The prior of a template with symptoms when it is tried at a site whose failure matches
  // none of them (repair without a symptom): its precision there, which says little about
  // how it does when its symptom matches. Unset: `prior`.
  std::optional<double> unmatched_prior;
  std::vector<Symptom> symptoms;  // any one may match; empty: a generic fix operator that
                                  // names no symptom (tried at any site, ranked after
                                  // the templates whose symptom matches)
  // `weak: true`: its patches often pass tests that do not reach the fault (they delete code or
  // leave on a condition chosen to separate the runs), so validation looks past a plausible one
  // for a plausible patch of another kind, which comes first.
  bool weak = false;
  // `fix-all: true`: the defect is one wherever it is written (a mutable default), and a fix
  // in the history fixes every copy in the file: a candidate also rewrites the query's other
  // matches in the site's file that meet the `where` conditions (look-ups are the site's).
  bool fix_all = false;
  std::string scope = "statement";  // statement | loop | function | module: where the query runs
  std::optional<Query> query;       // captures become placeholders
  std::vector<Condition> conditions;
  std::vector<Lookup> lookups;
  std::vector<Action> actions;
  std::vector<Example> examples;
  std::optional<Scan> scan;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_PATTERNS_TEMPLATE_H_
