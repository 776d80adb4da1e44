#include "validators/process/child_env.h"

#include <fnmatch.h>

#include <algorithm>
#include <set>

extern char** environ;

namespace smallfix {
namespace {

struct NameRule {
  const char* glob;  // fnmatch pattern, matched without regard to case
  const char* why;
};

// Names withheld from every process that runs project code. Broad on purpose: a variable
// withheld by mistake costs one --pass-env; one let through by mistake may cost a credential.
constexpr NameRule kSecretNames[] = {
    {"GITHUB_TOKEN", "smallfix's push and API token (the bot)"},
    {"SMALLFIX_GITHUB_TOKEN", "smallfix's push and API token (the bot)"},
    {"SMALLFIX_LLM_API_KEY", "smallfix's model API key"},
    {"OPENAI_API_KEY", "smallfix's model API key (fallback)"},
    {"ACTIONS_RUNTIME_TOKEN", "GitHub Actions runner token"},
    {"ACTIONS_ID_TOKEN_REQUEST_*", "GitHub Actions OIDC token request"},
    {"CI_JOB_TOKEN", "GitLab CI job token"},
    {"*TOKEN*", "access tokens (HF_TOKEN, GH_TOKEN, NPM_TOKEN, CI runners')"},
    {"*SECRET*", "client secrets, secret keys"},
    {"*PASSWORD*", "passwords (CI_REGISTRY_PASSWORD, PGPASSWORD)"},
    {"*PASSWD*", "passwords"},
    {"*API_KEY*", "API keys (WANDB_API_KEY)"},
    {"*APIKEY*", "API keys"},
    {"*ACCESS_KEY*", "access keys (AWS_SECRET_ACCESS_KEY)"},
    {"*PRIVATE_KEY*", "private keys"},
    {"*CREDENTIAL*", "credential files (GOOGLE_APPLICATION_CREDENTIALS)"},
    {"*JWT*", "signed identity tokens (CI_JOB_JWT)"},
    {"*ASKPASS*", "programs that hand out passwords (GIT_ASKPASS)"},
    {"AWS_*", "AWS credentials and profile"},
    {"AZURE_*", "Azure credentials"},
    {"SSH_AUTH_SOCK", "the SSH agent: signs with the user's keys"},
    {"GPG_AGENT_INFO", "the GPG agent"},
    {"KUBECONFIG", "cluster credentials"},
    {"DOCKER_AUTH_CONFIG", "registry credentials"},
    {"NETRC", "a file of passwords"},
};

// Names that match a row above but hold no secret, and that training code reads.
constexpr NameRule kHarmlessNames[] = {
    {"*TOKENIZER*", "TOKENIZERS_PARALLELISM (Hugging Face tokenizers)"},
    {"AWS_CA_BUNDLE", "a path to CA certificates"},
    {"AWS_REGION", "a region name"},
    {"AWS_DEFAULT_REGION", "a region name"},
};

bool Matches(const NameRule& rule, const std::string& name) {
  return ::fnmatch(rule.glob, name.c_str(), FNM_CASEFOLD) == 0;
}

std::string NameOf(const std::string& entry) { return entry.substr(0, entry.find('=')); }

}  // namespace

bool LooksSecret(std::string_view name) {
  const std::string text(name);
  auto matches = [&](const NameRule& rule) { return Matches(rule, text); };
  return std::any_of(std::begin(kSecretNames), std::end(kSecretNames), matches) &&
         std::none_of(std::begin(kHarmlessNames), std::end(kHarmlessNames), matches);
}

std::vector<std::string> WithheldNames(const std::vector<std::string>& inherited,
                                       const std::vector<std::string>& pass) {
  const std::set<std::string> passed(pass.begin(), pass.end());
  std::set<std::string> withheld;
  for (const std::string& entry : inherited) {
    const std::string name = NameOf(entry);
    if (LooksSecret(name) && !passed.count(name)) withheld.insert(name);
  }
  return {withheld.begin(), withheld.end()};
}

std::vector<std::string> WithheldFromChildren(const std::vector<std::string>& pass) {
  return WithheldNames(OwnEnvironment(), pass);
}

std::vector<std::string> ChildEnvironment(const std::vector<std::string>& inherited,
                                          const std::map<std::string, std::string>& extra,
                                          const std::vector<std::string>& pass) {
  const std::vector<std::string> withheld = WithheldNames(inherited, pass);
  std::vector<std::string> out;
  for (const std::string& entry : inherited) {
    const std::string name = NameOf(entry);
    if (extra.count(name) || std::binary_search(withheld.begin(), withheld.end(), name)) continue;
    out.push_back(entry);
  }
  for (const auto& [key, value] : extra) out.push_back(key + "=" + value);
  return out;
}

std::vector<std::string> OwnEnvironment() {
  std::vector<std::string> out;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry)
    out.emplace_back(*entry);
  return out;
}

}  // namespace smallfix
