// The look-ups templates may name in `context:`, one row each. This table is the only
// registry: the loader checks a template's look-ups and their arguments against it, the
// matcher runs a row's function, `scan` reads its index flag. Adding a look-up is one function
// of type LookupBody in the file of its kind in this folder (or a new file: CMake takes every
// .cc here), its name in the declarations below and one row in the table.
#include <algorithm>

#include "engine/patterns/lookups/lookup.h"

namespace smallfix {

// callees.cc
LookupBody Callee, MissingArgument, NearestParameter, CalleeLacksParameter, ExternalCallee;
// scope.cc
LookupBody InScope, NotInScope;
// api_rename.cc
LookupBody ApiRename;
// calls.cc
LookupBody CallRejectsKeyword, CallMissesParameter, CallExcessPositional, TupleReturnTargets;
// compared.cc
LookupBody ComparedLiterals;
// donors.cc
LookupBody DonorEditLookup, DonorInsertLookup;
// flags.cc
LookupBody FlagName;
// functions.cc
LookupBody IsParameter, FallThrough, EarlyReturn, CallableName, ParameterIs, ListAccumulator,
    MutatedLater, InPlaceMethod, ShadowedParameter;
// format_keys.cc
LookupBody FormatKeyRename;
// getters.cc
LookupBody RepoGetter;
// names.cc
LookupBody OneOf, NearestName, SiblingMethod, IntegerNeighbours, NearbyLiteral, FallbackName,
    NearestWord;
// undefined.cc
LookupBody UndefinedNameLookup, MissingImport, MovedImport, UnassignedAttribute;
// unused.cc
LookupBody UnusedName;
// Look-ups that read the failing run's facts (engine/facts), one file each:
// real_callee.cc, none_values.cc, synthesized_guard.cc, real_names.cc, installed_version.cc
LookupBody RealCallee, RuntimeNone, SynthesizedGuard, RealNearestName, InstalledVersion;

namespace {

// Built once and never destroyed: the matcher may read it while other statics go away.
const std::vector<LookupSpec>* const kTable = new std::vector<LookupSpec>{
    {.name = "callee",
     .args = {"call"},
     .binds = {"callee", "callee_file", "callee_params"},
     .run = Callee,
     .summary = "resolve the function a call reaches through the repo index"},
    {.name = "missing-argument",
     .args = {"call", "name"},
     .binds = {"argument", "value"},
     .run = MissingArgument,
     .summary =
         "a required parameter of the callee the call does not pass, and a name in scope for it"},
    {.name = "nearest-parameter",
     .args = {"name", "call"},
     .binds = {"parameter"},
     .run = NearestParameter,
     .summary = "the callee's parameter nearest to a name (typo or rename); with `call`, not one "
                "the call already passes"},
    {.name = "callee-lacks-parameter",
     .args = {"name"},
     .binds = {},
     .run = CalleeLacksParameter,
     .summary = "holds when the callee neither has the parameter nor takes **kwargs"},
    {.name = "external-callee",
     .args = {"call"},
     .binds = {},
     .run = ExternalCallee,
     .summary = "holds when the call does not reach a def of the repo"},
    {.name = "in-scope",
     .args = {"name"},
     .binds = {},
     .run = InScope,
     .summary = "holds when the name is bound at the site"},
    {.name = "not-in-scope",
     .args = {"name"},
     .binds = {},
     .run = NotInScope,
     .summary = "holds when the name is not bound at the site"},
    {.name = "api-rename",
     .args = {"name", "module"},
     .binds = {"old_name", "new_name", "other_name", "other_module", "other_leaf", "api_module",
               "since", "since_package", "since_version", "removed"},
     .run = ApiRename,
     .summary = "the API-history entry where the name is the old or the new one"},
    {.name = "one-of",
     .args = {"value", "among"},
     .binds = {"alternative"},
     .run = OneOf,
     .summary = "each of the `|`-separated words of `among` other than `value`, one match each"},
    {.name = "nearest-name",
     .args = {"name"},
     .binds = {"nearest"},
     .run = NearestName,
     .summary = "the names in scope of the same kind closest to `name` (a local for a local, "
                "self.b for self.a), up to 3"},
    {.name = "sibling-method",
     .args = {"receiver", "method"},
     .binds = {"sibling"},
     .run = SiblingMethod,
     .summary = "the methods of the same receiver closest to `method` (its class's defs, its "
                "other calls in the file), up to 3"},
    {.name = "parameter",
     .args = {"name"},
     .binds = {"first_statement"},
     .run = IsParameter,
     .summary = "holds when `name` is a parameter of the enclosing def; binds the node of the "
                "def's first statement"},
    {.name = "fall-through",
     .args = {},
     .binds = {"last_statement", "return_value"},
     .run = FallThrough,
     .summary = "holds when the enclosing def returns a value somewhere yet can run off its end; "
                "one match per value to return"},
    {.name = "early-return",
     .args = {},
     .binds = {"early_return"},
     .run = EarlyReturn,
     .summary = "the statement that returns early from the enclosing def: the empty value of its "
                "annotated return type (`return []` for `-> List[int]`), else `return`"},
    {.name = "integer-neighbours",
     .args = {"value"},
     .binds = {"alternative"},
     .run = IntegerNeighbours,
     .summary =
         "the integers one below and one above an integer literal (off by one), one match each"},
    {.name = "nearby-literal",
     .args = {"literal"},
     .binds = {"alternative"},
     .run = NearbyLiteral,
     .summary = "up to 3 other literals of the captured literal's kind in the enclosing def "
                "(else the module), nearest in text first"},
    {.name = "callable-name",
     .args = {"name"},
     .binds = {},
     .run = CallableName,
     .summary = "holds when the name at the site is a function: the file defines a def of that "
                "name, or the name is imported"},
    {.name = "parameter-is",
     .args = {"name", "kind"},
     .binds = {},
     .run = ParameterIs,
     .summary = "holds when `name` is a parameter of the enclosing def of `kind`: var-positional "
                "(*name), var-keyword (**name), named (neither) or default-none (name=None)"},
    {.name = "fallback-name",
     .args = {"name"},
     .binds = {"fallback"},
     .run = FallbackName,
     .summary = "up to 3 imported or module-level names sharing a word with `name` "
                "(`default_collate` for `collate_fn`), those that say default first"},
    {.name = "repo-getter",
     .args = {"name"},
     .binds = {"getter"},
     .run = RepoGetter,
     .summary = "up to 3 calls of module-level `get_..._<name>()` defs of repo modules the file "
                "imports, those whose words the enclosing def also uses first"},
    {.name = "flag-name",
     .args = {"condition"},
     .binds = {"flag", "and_operand", "or_operand"},
     .run = FlagName,
     .summary = "the boolean parameter of the enclosing def or switch attribute of its class "
                "that the code tests most often next to the condition's names (else in the def, "
                "else in the class); the condition as an operand of and / or"},
    {.name = "nearest-word",
     .args = {"value", "among"},
     .binds = {"alternative"},
     .run = NearestWord,
     .summary = "the `|`-separated words of `among` within a typo of `value` (not `value` "
                "itself), nearest first, up to 3"},
    {.name = "unused-name",
     .args = {"name"},
     .binds = {"unused"},
     .run = UnusedName,
     .summary =
         "up to 2 names other than `name`, of its kind, bound in the enclosing def before the "
         "site and read nowhere in it: loop variables first, then locals, then parameters"},
    {.name = "compared-literals",
     .args = {"subject", "literal"},
     .binds = {"sibling_literal"},
     .run = ComparedLiterals,
     .summary =
         "up to 2 other string literals the code compares `subject` with (==, !=, in a list or "
         "tuple) in the enclosing def, else the module; most often compared first, then nearest"},
    {.name = "list-accumulator",
     .args = {"name"},
     .binds = {},
     .run = ListAccumulator,
     .summary = "holds when the site is in a loop and its def sets `name` to [] or list() before "
                "the outermost loop"},
    {.name = "mutated-later",
     .args = {"name"},
     .binds = {"container"},
     .run = MutatedLater,
     .summary =
         "holds when the enclosing def changes `name` in place after the site (a set, list "
         "or dict method, an item assignment, |=); binds the container type to copy it with"},
    {.name = "in-place-method",
     .args = {"method"},
     .binds = {},
     .run = InPlaceMethod,
     .summary = "holds when `method` is a set, list or dict method that changes its object in "
                "place (`pop`, `append`, `update`, `sort`, ...), the methods mutated-later reads"},
    {.name = "format-key-rename",
     .args = {"call", "key"},
     .binds = {"format_string", "renamed", "passed_key"},
     .run = FormatKeyRename,
     .summary = "holds when the str.format call's string (there or a module-level constant) "
                "names the field `key`, which the call does not pass, and the call passes "
                "exactly one key the string never names (keywords, ** of a dict literal or of a "
                "module def returning one); binds the string (a node too) and it renamed"},
    {.name = "shadowed-parameter",
     .args = {"def", "name", "before"},
     .binds = {"passed"},
     .run = ShadowedParameter,
     .summary = "holds when `name`, a positional parameter of the nested def @def before its "
                "parameter `before`, is also a parameter of the enclosing def, which calls the "
                "nested one once passing its own `name` in that place; binds that argument (a "
                "node too)"},
    {.name = "call-rejects-keyword",
     .args = {"call", "name"},
     .binds = {"callee", "callee_file", "callee_params"},
     .run = CallRejectsKeyword,
     .summary = "holds when the index is sure of every def the call reaches and none takes the "
                "keyword (nor **kwargs)",
     .index_in_scan = true},
    {.name = "call-misses-parameter",
     .args = {"call", "required", "pass"},
     .binds = {"argument", "value", "callee", "callee_file", "callee_params"},
     .run = CallMissesParameter,
     .summary =
         "each parameter (required: yes, or no for one with a default) of the surely resolved "
         "callee that the call leaves out while the same name (or self.<name>) is in scope, to "
         "pass as `pass` says: positional (the next slot of a call with no keywords) or keyword",
     .index_in_scan = true},
    {.name = "call-excess-positional",
     .args = {"call"},
     .binds = {"excess", "callee", "callee_file", "callee_params"},
     .run = CallExcessPositional,
     .summary =
         "holds when the call passes more positional arguments than the surely resolved callee "
         "takes; binds the last (a node too), then any other whose name is no parameter's",
     .index_in_scan = true},
    {.name = "tuple-return-targets",
     .args = {"call", "target"},
     .binds = {"targets", "arity", "callee", "callee_file", "callee_params"},
     .run = TupleReturnTargets,
     .summary = "holds when every return of the surely resolved callee is a tuple of one size "
                "that the assignment's target (a name not used as a tuple, or names) does not "
                "match; binds the targets that do",
     .index_in_scan = true},
    {.name = "undefined-name",
     .args = {"capture"},
     .binds = {},
     .run = UndefinedNameLookup,
     .summary = "holds when the capture is a read of a name that nothing in the module binds and "
                "that is no builtin"},
    {.name = "missing-import",
     .args = {"at"},
     .binds = {"name", "import"},
     .run = MissingImport,
     .summary =
         "one match per name the module reads but never binds that a known module or exactly one "
         "repo module defines, with its import statement; `at: imports` only at a site in the "
         "import block (every such name of the module), else only names the site reads"},
    {.name = "moved-import",
     .args = {"names"},
     .binds = {"new_module", "kept", "import"},
     .run = MovedImport,
     .summary =
         "holds when the site's from-import names a repo module that lacks all (`names: all`) or "
         "only some (`names: some`) of its names while exactly one other repo module defines the "
         "missing ones; binds that module as the file writes it (relative or absolute), and for "
         "`some` the statement without them (`kept`) and their own import (`import`)"},
    {.name = "unassigned-attribute",
     .args = {"name"},
     .binds = {"nearest"},
     .run = UnassignedAttribute,
     .summary = "holds when `self.x` is read in a method but neither the class nor its repo "
                "bases assign or define `x` and no module assigns `.x`; binds up to 3 attributes "
                "the class has that are nearest to it"},
    {.name = "donor-edit",
     .args = {},
     .binds = {"donor_site", "donor_code", "donor_line"},
     .run = DonorEditLookup,
     .summary = "up to 3 statements of the file of the site's shape and head (callee, target) "
                "that differ from it in one place on the fault line (a near copy, or one token "
                "the copy writes as an expression) and read only names bound at the site; binds "
                "the site's smallest node around that place and the copy's text for it"},
    {.name = "donor-insert",
     .args = {"side"},
     .binds = {"donor_statement", "donor_line"},
     .run = DonorInsertLookup,
     .summary = "up to 3 statements that a near copy of the site statement elsewhere in the file "
                "has next to it (`side`: before or after) where the site has none, with the "
                "copy's next statements matching the site's; read only names bound at the site"},
    {.name = "real-callee",
     .args = {"call"},
     .binds = {"callee", "callee_file", "callee_params", "fact"},
     .run = RealCallee,
     .summary = "the callee of the call as the failing run saw it (inspect.signature at the "
                "raising line), for missing-argument, nearest-parameter and "
                "callee-lacks-parameter where the index has no def (an installed or C function)",
     .reads_facts = true},
    {.name = "runtime-none",
     .args = {"within"},
     .binds = {"none_value", "fact"},
     .run = RuntimeNone,
     .summary = "up to 3 names and attributes that were None at the site in the failing run and "
                "that the statement (or the `within` capture) reads, in the order it reads them",
     .reads_facts = true},
    {.name = "synthesized-guard",
     .args = {"condition"},
     .binds = {"guard", "guard_negation", "guard_root", "guard_and_condition", "fact"},
     .run = SynthesizedGuard,
     .summary =
         "up to 3 conditions over the values at the site that held in the failing run and "
         "in no passing run at that line (None, emptiness, constants, types, hasattr, "
         "tensor properties, a world size of one), best evidence first; `guard` held "
         "when it failed, `guard_negation` is its negation, `guard_root` the name its subject "
         "starts from (empty for `self`, `cls`); at an `if` whose branch opens with the "
         "`raise` that failed, the values at the raise; with `condition` (a capture), "
         "`guard_and_condition` is that condition with `guard_negation` and-ed in front of "
         "the first operand reading the subject, else of the first call, else last",
     .reads_facts = true},
    {.name = "real-nearest-name",
     .args = {"name"},
     .binds = {"nearest", "fact"},
     .run = RealNearestName,
     .summary = "up to 3 names nearest to a missing attribute that its owner (a module or "
                "object) really had in the failing run's installed version",
     .reads_facts = true},
    {.name = "installed-version",
     .args = {"package"},
     .binds = {"installed_version", "fact"},
     .run = InstalledVersion,
     .summary = "the major.minor release of the package (the top of a dotted module name) the "
                "failing run had installed",
     .reads_facts = true},
};

}  // namespace

const std::vector<LookupSpec>& LookupSpecs() { return *kTable; }

bool ReadsRuntimeFacts(const Template& t) {
  return std::any_of(t.lookups.begin(), t.lookups.end(),
                     [](const Template::Lookup& lookup) { return lookup.spec->reads_facts; });
}

const LookupSpec* FindLookupSpec(std::string_view name) {
  for (const LookupSpec& spec : LookupSpecs()) {
    if (name == spec.name) return &spec;
  }
  return nullptr;
}

}  // namespace smallfix
