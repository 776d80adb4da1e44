#ifndef SMALLFIX_VALIDATORS_PROCESS_CHILD_ENV_H_
#define SMALLFIX_VALIDATORS_PROCESS_CHILD_ENV_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace smallfix {

// What a process smallfix starts inherits of smallfix's own environment: everything except
// the variables that look like secrets. The project's tests, a candidate patch and anything
// they start run with this environment; a candidate may be written from untrusted text (an
// issue, a model's answer), so the push token, the model API key, a CI runner's tokens and
// cloud credentials stay with smallfix. docs/threat-model.md says what this covers.
//
// A name looks secret when it matches a row of the table in child_env.cc (case-insensitive
// globs: *TOKEN*, *SECRET*, *PASSWORD*, *API_KEY*, AWS_*, AZURE_*, SSH_AUTH_SOCK, ...) and no
// row of its harmless table (TOKENIZERS_PARALLELISM). `pass` (--pass-env, .smallfix.yaml's
// pass_env:) names variables a test needs anyway; they are inherited as they are.
bool LooksSecret(std::string_view name);

// The names of `inherited` ("NAME=VALUE" entries) that a child does not get: they look secret
// and are not in `pass`. Sorted, each once; values are never looked at.
std::vector<std::string> WithheldNames(const std::vector<std::string>& inherited,
                                       const std::vector<std::string>& pass);

// The same for this process's own environment (environ).
std::vector<std::string> WithheldFromChildren(const std::vector<std::string>& pass);

// A child's environment as "NAME=VALUE" strings: `inherited` without the withheld names, then
// `extra` over it (extra wins; smallfix sets it, so it is never withheld).
std::vector<std::string> ChildEnvironment(const std::vector<std::string>& inherited,
                                          const std::map<std::string, std::string>& extra,
                                          const std::vector<std::string>& pass);

// This process's environment (environ) as "NAME=VALUE" strings.
std::vector<std::string> OwnEnvironment();

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_PROCESS_CHILD_ENV_H_
