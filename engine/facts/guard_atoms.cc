// The kinds of predicate guard synthesis tries, one row each. A row's weight says how often a
// guard of its kind fixes a crash of this sort (None checks most, dtype checks least); its
// function makes the predicates for one local, written so that P is the telling way round
// where there is one (`x is None`, not `x is not None`).
#include "engine/facts/guard_atoms.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace smallfix {
namespace {

using Make = void (*)(const AtomInput& in, std::vector<GuardAtom>& out);

GuardAtom Atom(std::string subject, std::string root, std::string when_true, std::string when_false,
               std::string said_true, std::string said_false) {
  GuardAtom atom;
  atom.subject = std::move(subject);
  atom.root = std::move(root);
  atom.when_true = std::move(when_true);
  atom.when_false = std::move(when_false);
  atom.said_true = std::move(said_true);
  atom.said_false = std::move(said_false);
  return atom;
}

bool Bound(const GuardSite& site, std::string_view name) { return site.bound && site.bound(name); }

// The class of a value as the site may name it: `list`, `torch.Tensor`; "" when the site does
// not import its top-level module.
std::string TypeName(const ValueFacts& value, const GuardSite& site) {
  if (value.module.empty() || value.module == "builtins") return value.type;
  const std::string top = value.module.substr(0, value.module.find('.'));
  return Bound(site, top) ? absl::StrFormat("%s.%s", value.module, value.type) : "";
}

void NoneAtom(const AtomInput& in, std::vector<GuardAtom>& out) {
  if (in.name == "self") return;  // self is never None
  GuardAtom atom = Atom(in.name, in.name, in.name + " is None", in.name + " is not None",
                        "was None", "was not None");
  atom.telling = true;
  atom.explains = GuardAtom::Explains::kNone;
  atom.holds = [](const ValueFacts& v) -> std::optional<bool> { return v.none; };
  out.push_back(std::move(atom));
}

// `x.a is None` for each attribute that was None in the failing run or in a passing one.
void AttributeNoneAtoms(const AtomInput& in, std::vector<GuardAtom>& out) {
  std::vector<std::string> attrs = in.failing.attrs_none;
  for (const ValueFacts* value : in.passing) {
    attrs.insert(attrs.end(), value->attrs_none.begin(), value->attrs_none.end());
  }
  std::sort(attrs.begin(), attrs.end());
  attrs.erase(std::unique(attrs.begin(), attrs.end()), attrs.end());
  for (const std::string& attr : attrs) {
    // Another object's private state is not what its callers guard on; the site's own is.
    if (attr.starts_with("_") && in.name != "self") continue;
    const std::string subject = absl::StrFormat("%s.%s", in.name, attr);
    GuardAtom atom = Atom(subject, in.name, subject + " is None", subject + " is not None",
                          "was None", "was not None");
    atom.telling = true;
    atom.explains = GuardAtom::Explains::kNone;
    atom.holds = [attr](const ValueFacts& v) -> std::optional<bool> {
      if (v.none) return std::nullopt;
      return std::find(v.attrs_none.begin(), v.attrs_none.end(), attr) != v.attrs_none.end();
    };
    out.push_back(std::move(atom));
  }
}

// `not x` for a built-in container; a tensor's len() is its first dimension, so not here.
void EmptyAtom(const AtomInput& in, std::vector<GuardAtom>& out) {
  if (!in.failing.len || in.failing.module != "builtins") return;
  GuardAtom atom = Atom(in.name, in.name, "not " + in.name, in.name, "was empty", "was not empty");
  atom.telling = true;
  atom.explains = GuardAtom::Explains::kEmpty;
  atom.holds = [](const ValueFacts& v) -> std::optional<bool> {
    if (!v.len || v.module != "builtins") return std::nullopt;
    return *v.len == 0;
  };
  out.push_back(std::move(atom));
}

std::optional<bool> NoElements(const ValueFacts& v) {
  if (!v.shape) return std::nullopt;
  return std::find(v.shape->begin(), v.shape->end(), 0) != v.shape->end();
}

void NumelAtom(const AtomInput& in, std::vector<GuardAtom>& out) {
  if (!in.failing.shape) return;
  GuardAtom atom = Atom(in.name, in.name, in.name + ".numel() == 0", in.name + ".numel() > 0",
                        "had no elements", "had elements");
  atom.telling = true;
  atom.explains = GuardAtom::Explains::kEmpty;
  atom.holds = NoElements;
  out.push_back(std::move(atom));
}

// `x == 0`, `flag`, `backend == 'nccl'`: the local equals the literal it had in the failing run.
void LiteralAtom(const AtomInput& in, std::vector<GuardAtom>& out) {
  if (!in.failing.literal || in.failing.none) return;
  const std::string literal = *in.failing.literal;
  const bool boolean = literal == "True" || literal == "False";
  GuardAtom atom = boolean
                       ? Atom(in.name, in.name, in.name, "not " + in.name, "was True", "was False")
                       : Atom(in.name, in.name, absl::StrFormat("%s == %s", in.name, literal),
                              absl::StrFormat("%s != %s", in.name, literal), "was " + literal,
                              "was not " + literal);
  const std::string wanted = boolean ? "True" : literal;
  atom.telling = literal == "0" || literal == "0.0" || literal == "''" || literal == "\"\"";
  atom.explains = GuardAtom::Explains::kEmpty;
  atom.holds = [wanted](const ValueFacts& v) -> std::optional<bool> {
    if (v.none) return false;
    if (!v.literal) return std::nullopt;
    return *v.literal == wanted;
  };
  out.push_back(std::move(atom));
}

std::optional<double> Number(const ValueFacts& v) {
  if (!v.literal || v.literal->empty() || v.type == "bool") return std::nullopt;
  char* end = nullptr;
  const double number = std::strtod(v.literal->c_str(), &end);
  if (end != v.literal->c_str() + v.literal->size()) return std::nullopt;
  return number;
}

// `n <= 1` when every passing run had a larger number there (or `n >= 8` the other way).
void ThresholdAtom(const AtomInput& in, std::vector<GuardAtom>& out) {
  const std::optional<double> failing = Number(in.failing);
  if (!failing) return;
  bool below = false, above = false;
  for (const ValueFacts* value : in.passing) {
    const std::optional<double> number = Number(*value);
    if (!number) continue;
    below |= *number < *failing;
    above |= *number > *failing;
  }
  if (below == above) return;  // no passing number, or some on each side
  const std::string& literal = *in.failing.literal;
  const char* op = above ? "<=" : ">=";
  const char* other = above ? ">" : "<";
  GuardAtom atom =
      Atom(in.name, in.name, absl::StrFormat("%s %s %s", in.name, op, literal),
           absl::StrFormat("%s %s %s", in.name, other, literal),
           absl::StrFormat("was %s %s", op, literal), absl::StrFormat("was %s %s", other, literal));
  const double bound = *failing;
  atom.holds = [bound, above](const ValueFacts& v) -> std::optional<bool> {
    const std::optional<double> number = Number(v);
    if (!number) return std::nullopt;
    return above ? *number <= bound : *number >= bound;
  };
  out.push_back(std::move(atom));
}

void TypeAtom(const AtomInput& in, std::vector<GuardAtom>& out) {
  if (in.failing.none || in.failing.type.empty()) return;
  const std::string type = TypeName(in.failing, in.site);
  if (type.empty()) return;
  GuardAtom atom = Atom(in.name, in.name, absl::StrFormat("isinstance(%s, %s)", in.name, type),
                        absl::StrFormat("not isinstance(%s, %s)", in.name, type),
                        "was a " + in.failing.type, "was not a " + in.failing.type);
  atom.holds = [want = in.failing](const ValueFacts& v) -> std::optional<bool> {
    if (v.type.empty() && !v.none) return std::nullopt;
    return !v.none && v.type == want.type && (v.module.empty() || v.module == want.module);
  };
  out.push_back(std::move(atom));
}

// `isinstance(x, (Shard, _StridedShard))` for the classes the passing runs had at the line
// when the failing run had another: code written for some of a base's subclasses meets one
// more (a placement that is not a shard has no `.dim`). The classes must be nameable at the
// site: bound there by name, or through their module.
void PassingTypesAtom(const AtomInput& in, std::vector<GuardAtom>& out) {
  if (in.failing.none || in.failing.type.empty() || in.passing.empty()) return;
  std::vector<std::string> names;
  std::vector<std::pair<std::string, std::string>> classes;  // (module, type) of passing runs
  for (const ValueFacts* value : in.passing) {
    if (value->none || value->type.empty()) return;
    if (value->type == in.failing.type && value->module == in.failing.module) return;
    const std::pair<std::string, std::string> cls = {value->module, value->type};
    if (std::find(classes.begin(), classes.end(), cls) != classes.end()) continue;
    const std::string name = Bound(in.site, value->type) ? value->type : TypeName(*value, in.site);
    if (name.empty()) return;
    classes.push_back(cls);
    names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  const std::string types =
      names.size() == 1 ? names[0] : absl::StrFormat("(%s)", absl::StrJoin(names, ", "));
  GuardAtom atom = Atom(in.name, in.name, absl::StrFormat("not isinstance(%s, %s)", in.name, types),
                        absl::StrFormat("isinstance(%s, %s)", in.name, types),
                        "was a " + in.failing.type, "was a " + absl::StrJoin(names, " or "));
  atom.holds = [classes](const ValueFacts& v) -> std::optional<bool> {
    if (v.type.empty() && !v.none) return std::nullopt;
    return v.none || std::find(classes.begin(), classes.end(), std::make_pair(v.module, v.type)) ==
                         classes.end();
  };
  out.push_back(std::move(atom));
}

// Whether a value is of the class an exception names: "SGD" or, qualified, "torch.optim.sgd.SGD".
bool OfClass(const ValueFacts& value, const std::string& name) {
  return !value.none && (name == value.type || name == value.module + "." + value.type);
}

// `not hasattr(x, "a")` for the local of the class that lacked `a` in an AttributeError.
void HasattrAtom(const AtomInput& in, std::vector<GuardAtom>& out) {
  const auto& attrs = in.facts.exception.attrs;
  auto name = attrs.find("name"), owner = attrs.find("obj_type");
  if (in.facts.exception.type != "AttributeError" || name == attrs.end() || owner == attrs.end() ||
      !OfClass(in.failing, owner->second)) {
    return;
  }
  const std::string call = absl::StrFormat("hasattr(%s, \"%s\")", in.name, name->second);
  GuardAtom atom = Atom(absl::StrFormat("%s.%s", in.name, name->second), in.name, "not " + call,
                        call, "had no attribute " + name->second, "had " + name->second);
  atom.telling = true;
  // Another value of the same class lacks it too; one of another class may have it.
  atom.holds = [type = owner->second](const ValueFacts& v) -> std::optional<bool> {
    if (OfClass(v, type)) return true;
    return std::nullopt;
  };
  out.push_back(std::move(atom));
}

std::string DeviceType(const std::string& device) { return device.substr(0, device.find(':')); }

void DeviceAtom(const AtomInput& in, std::vector<GuardAtom>& out) {
  if (!in.failing.device) return;
  const std::string type = DeviceType(*in.failing.device);
  GuardAtom atom =
      Atom(in.name, in.name, absl::StrFormat("%s.device.type == \"%s\"", in.name, type),
           absl::StrFormat("%s.device.type != \"%s\"", in.name, type), "was on " + type,
           "was not on " + type);
  atom.telling = type == "meta";  // a meta tensor has no data to read
  atom.explains = GuardAtom::Explains::kMeta;
  atom.holds = [type](const ValueFacts& v) -> std::optional<bool> {
    if (!v.device) return std::nullopt;
    return DeviceType(*v.device) == type;
  };
  out.push_back(std::move(atom));
}

void RequiresGradAtom(const AtomInput& in, std::vector<GuardAtom>& out) {
  if (!in.failing.requires_grad) return;
  GuardAtom atom =
      Atom(in.name, in.name, in.name + ".requires_grad", "not " + in.name + ".requires_grad",
           "required grad", "did not require grad");
  atom.holds = [](const ValueFacts& v) { return v.requires_grad; };
  out.push_back(std::move(atom));
}

void DtypeAtom(const AtomInput& in, std::vector<GuardAtom>& out) {
  if (!in.failing.dtype || !Bound(in.site, "torch")) return;
  const std::string dtype = *in.failing.dtype;
  GuardAtom atom =
      Atom(in.name, in.name, absl::StrFormat("%s.dtype == %s", in.name, dtype),
           absl::StrFormat("%s.dtype != %s", in.name, dtype), "was " + dtype, "was not " + dtype);
  atom.holds = [dtype](const ValueFacts& v) -> std::optional<bool> {
    if (!v.dtype) return std::nullopt;
    return *v.dtype == dtype;
  };
  out.push_back(std::move(atom));
}

struct Row {
  const char* kind;
  double weight;
  Make make;
};

// Weights: a None check is the commonest guard in the frameworks' fixes, then emptiness and a
// missing attribute; equalities with constants and type tests come next, tensor properties last.
constexpr Row kRows[] = {
    {"none", 1.0, NoneAtom},
    {"attribute-none", 1.0, AttributeNoneAtoms},
    {"hasattr", 0.9, HasattrAtom},
    {"empty", 0.8, EmptyAtom},
    {"no-elements", 0.7, NumelAtom},
    {"literal", 0.6, LiteralAtom},
    {"threshold", 0.5, ThresholdAtom},
    {"isinstance", 0.5, TypeAtom},
    {"passing-types", 0.5, PassingTypesAtom},
    {"device", 0.5, DeviceAtom},
    {"requires-grad", 0.5, RequiresGradAtom},
    {"dtype", 0.4, DtypeAtom},
};

}  // namespace

std::vector<GuardAtom> LocalAtoms(const AtomInput& in) {
  std::vector<GuardAtom> atoms;
  for (const Row& row : kRows) {
    const size_t first = atoms.size();
    row.make(in, atoms);
    for (size_t i = first; i < atoms.size(); ++i) atoms[i].weight = row.weight;
  }
  return atoms;
}

namespace {

// Whether the message counts zero of something, "0 elements", "asked for 0 devices": a raise
// that names the count it refused is about that zero.
bool SaysACountOfZero(std::string_view message) {
  for (size_t at = message.find("0 "); at != std::string_view::npos;
       at = message.find("0 ", at + 1)) {
    const bool starts = at == 0 || !(std::isalnum(static_cast<unsigned char>(message[at - 1])) ||
                                     message[at - 1] == '.' || message[at - 1] == '_');
    const bool noun =
        at + 2 < message.size() && std::isalpha(static_cast<unsigned char>(message[at + 2]));
    if (starts && noun) return true;
  }
  return false;
}

}  // namespace

bool ExplainsException(GuardAtom::Explains kind, const ExceptionFacts& exception) {
  const std::string& type = exception.type;
  const std::string& message = exception.message;
  auto says = [&](std::string_view word) { return message.find(word) != std::string::npos; };
  switch (kind) {
    case GuardAtom::Explains::kAny:
      return true;
    case GuardAtom::Explains::kNone:
      return says("None");
    case GuardAtom::Explains::kEmpty:
      return type == "ZeroDivisionError" || type == "IndexError" || type == "StopIteration" ||
             says("empty") || says("zero") || says("size 0") || SaysACountOfZero(message);
    case GuardAtom::Explains::kMeta:
      return says("meta");
  }
  return true;
}

std::vector<GuardAtom> ProcessAtoms(const RuntimeFacts& facts, const GuardSite& site) {
  std::vector<GuardAtom> atoms;
  if (!facts.distributed || facts.distributed->world_size != 1) return atoms;
  // A process group of one: collectives are no-ops and rank-dependent splits degenerate.
  const std::string module = Bound(site, "dist")    ? "dist"
                             : Bound(site, "torch") ? "torch.distributed"
                                                    : "";
  if (module.empty()) return atoms;
  const std::string call = module + ".get_world_size()";
  GuardAtom atom = Atom(call, "", call + " == 1", call + " > 1", "was 1", "was above 1");
  atom.telling = true;
  atom.weight = 0.6;
  atom.process = true;
  atoms.push_back(std::move(atom));
  return atoms;
}

}  // namespace smallfix
