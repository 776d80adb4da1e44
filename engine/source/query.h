#ifndef SMALLFIX_ENGINE_SOURCE_QUERY_H_
#define SMALLFIX_ENGINE_SOURCE_QUERY_H_

#include <tree_sitter/api.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/source/document.h"

namespace smallfix {

struct QueryCapture {
  std::string_view name;  // views the Query's storage; valid while the Query lives
  TSNode node;
};

struct QueryMatch {
  int pattern = 0;
  std::vector<QueryCapture> captures;

  // The first node captured as `name`, if any.
  std::optional<TSNode> Get(std::string_view name) const;
  // Every node captured as `name` (quantified captures give several).
  std::vector<TSNode> GetAll(std::string_view name) const;
};

// A compiled tree-sitter query over the Python grammar.
//
// The C API only parses predicates; this class evaluates them: #eq?, #not-eq?, #match?,
// #not-match?, #any-of?, #not-any-of? (regexes are RE2). Each takes a capture first and then
// a capture or string(s); a quantified capture satisfies a predicate when all its nodes do.
// A Query is immutable after Compile, cheap to copy, and safe to run from several threads.
class Query {
 public:
  // Errors name the line and column in `source` and what is wrong there.
  static absl::StatusOr<Query> Compile(std::string_view source);

  // Matches within `node` whose captures pass every predicate, in document order.
  std::vector<QueryMatch> Run(const Document& document, TSNode node) const;
  // As above, restricted to matches that intersect [start_byte, end_byte).
  std::vector<QueryMatch> Run(const Document& document, TSNode node, size_t start_byte,
                              size_t end_byte) const;

  int pattern_count() const;
  const std::vector<std::string>& capture_names() const;

 private:
  struct Impl;
  explicit Query(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

  std::shared_ptr<const Impl> impl_;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SOURCE_QUERY_H_
