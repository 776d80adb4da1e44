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
    std::string capture;             // for the text checks
    std::string value;               // text with placeholders, regex, or node types ("a|b")
    int line = 0;                    // in the YAML file, for messages
  };

  // A context look-up the C++ side answers (context.cc); it binds placeholders or rejects.
  struct Lookup {
    std::string kind;                          // "callee", "nearest-parameter", ...
    std::map<std::string, std::string> args;   // as written, placeholders unexpanded
    std::vector<std::string> binds;            // placeholder names it defines
    int line = 0;
  };

  // One edit of the rewrite.
  struct Action {
    std::string kind;                          // "insert-before", "wrap-if", "add-keyword", ...
    std::map<std::string, std::string> args;   // as written, placeholders unexpanded
    int line = 0;
  };

  struct Example {
    std::string name;
    std::string symptom;   // "Type: message"
    std::string before;
    int line = 0;          // 1-based fault line in `before`
    std::optional<std::string> after;   // nullopt: the template must not apply
    std::map<std::string, std::string> files;  // other files of the example repo (path -> text)
  };

  std::string id;       // "guard.none-continue"
  std::string family;   // guard | param | compat
  std::string summary;
  std::string file;     // the YAML file it came from
  double prior = 0.5;   // how common the strategy is in the frameworks' bug histories, 0..1
  std::vector<Symptom> symptoms;    // any one may match; empty: applies to any failure
  std::string scope = "statement";  // statement | function | module: where the query runs
  std::optional<Query> query;       // captures become placeholders
  std::vector<Condition> conditions;
  std::vector<Lookup> lookups;
  std::vector<Action> actions;
  std::vector<Example> examples;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_PATTERNS_TEMPLATE_H_
