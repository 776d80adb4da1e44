#ifndef SMALLFIX_ENGINE_LOCALIZE_NAMED_CLASS_H_
#define SMALLFIX_ENGINE_LOCALIZE_NAMED_CLASS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/localize/localization.h"
#include "engine/localize/repo_search.h"

namespace smallfix {

// A class that an error message names as the object at fault:
//   AttributeError: 'ShardedAdam' object has no attribute 'state'
//   AttributeError: type object 'ZeroConfig' has no attribute 'defaults'
//   TypeError: 'ParamBucket' object is not subscriptable / callable / iterable
//   TypeError: object of type 'Batches' has no len()
struct NamedClass {
  std::string name;  // the class's own name ("ShardedAdam"; a module qualifier dropped)
  std::string attr;  // the attribute it lacks; "" when the message names none
};

std::optional<NamedClass> ClassNamedBy(const Symptom& symptom);

// Where the class is defined in the repo's own (non-test) files, as sites, best first:
// the lines that set the missing attribute (`self.state = ...`: set only on some path or too
// late), the first attribute set in `__init__` (where a missing attribute is added; its first
// statement when it sets none), the first attribute set in each other method, and the class
// statement (a missing dunder or property, a dataclass field). Without an attribute (a
// TypeError) the class statement comes first. Empty when the repo defines no such class.
// True when another class of the repo sets the attribute (`self.attr = ...`) or defines it
// (`def attr`): then the object was probably of the wrong class, passed where the other was
// expected, and the reads of the attribute matter more than the named class.
bool AnotherClassHasAttribute(const NamedClass& named, RepoSearch& search);

std::vector<SearchHit> NamedClassSites(const NamedClass& named, RepoSearch& search,
                                       size_t max_hits);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_NAMED_CLASS_H_
