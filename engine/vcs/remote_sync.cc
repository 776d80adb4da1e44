#include "engine/vcs/remote_sync.h"

#include <git2.h>

#include <filesystem>
#include <memory>

#include "absl/strings/str_replace.h"
#include "engine/base/concat.h"
#include "engine/base/libgit2.h"

namespace smallfix {
namespace {

namespace fs = std::filesystem;

struct Callbacks {
  const GitAuth* auth = nullptr;
  int credential_calls = 0;
  std::string rejected;  // "refs/heads/x: reason" from the remote
};

int Credentials(git_credential** out, const char* url, const char* username_from_url,
                unsigned int allowed_types, void* payload) {
  Callbacks& callbacks = *static_cast<Callbacks*>(payload);
  const std::string_view address = url != nullptr ? url : "";
  const bool web = address.starts_with("https://") || address.starts_with("http://");
  if (!web || callbacks.auth->token.empty() ||
      !(allowed_types & GIT_CREDENTIAL_USERPASS_PLAINTEXT)) {
    git_error_set_str(GIT_ERROR_NET, "the remote asks for credentials; set GITHUB_TOKEN");
    return GIT_EAUTH;
  }
  // libgit2 asks again after every 401: a second ask means the server refused the token.
  if (++callbacks.credential_calls > 1) {
    git_error_set_str(GIT_ERROR_NET, "the remote refused the token (GITHUB_TOKEN)");
    return GIT_EAUTH;
  }
  return git_credential_userpass_plaintext_new(out, "x-access-token",
                                               callbacks.auth->token.c_str());
}

int Progress(const git_indexer_progress*, void* payload) {
  const Callbacks& callbacks = *static_cast<Callbacks*>(payload);
  return callbacks.auth->cancel != nullptr && callbacks.auth->cancel->load() ? -1 : 0;
}

int PushUpdate(const char* ref, const char* status, void* payload) {
  if (status != nullptr) static_cast<Callbacks*>(payload)->rejected = Concat(ref, ": ", status);
  return 0;
}

void Install(git_remote_callbacks& remote, Callbacks& callbacks) {
  remote.credentials = &Credentials;
  remote.transfer_progress = &Progress;
  remote.push_update_reference = &PushUpdate;
  remote.payload = &callbacks;
}

absl::Status Error(std::string_view what, const GitAuth& auth) {
  if (auth.cancel != nullptr && auth.cancel->load())
    return absl::CancelledError(Concat(what, ": interrupted"));
  absl::Status status = Libgit2Error(what);
  std::string message(status.message());
  if (!auth.token.empty()) absl::StrReplaceAll({{auth.token, "[token]"}}, &message);
  // Network and permission trouble is the user's to fix, not smallfix's own failure.
  return absl::UnavailableError(message);
}

struct RepoCloser {
  void operator()(git_repository* repo) const { git_repository_free(repo); }
};
struct RemoteCloser {
  void operator()(git_remote* remote) const { git_remote_free(remote); }
};

}  // namespace

absl::Status CloneOrFetch(const std::string& url, const std::string& dir, const GitAuth& auth) {
  EnsureLibgit2();
  Callbacks callbacks;
  callbacks.auth = &auth;
  std::error_code error;
  if (!fs::exists(dir, error) || fs::is_empty(dir, error)) {
    git_clone_options options;
    git_clone_options_init(&options, GIT_CLONE_OPTIONS_VERSION);
    Install(options.fetch_opts.callbacks, callbacks);
    git_repository* raw = nullptr;
    if (git_clone(&raw, url.c_str(), dir.c_str(), &options) != 0) {
      absl::Status status = Error(Concat("cloning ", url), auth);
      fs::remove_all(dir, error);
      return status;
    }
    git_repository_free(raw);
    return absl::OkStatus();
  }
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, dir.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) {
    git_error_clear();
    return absl::FailedPreconditionError(
        Concat(dir, " exists and is not a git clone; give an empty or new directory"));
  }
  std::unique_ptr<git_repository, RepoCloser> repo(raw);
  git_remote* remote_raw = nullptr;
  if (git_remote_lookup(&remote_raw, repo.get(), "origin") != 0) {
    git_error_clear();
    return absl::FailedPreconditionError(
        Concat(dir, " is a git repository without an origin remote"));
  }
  std::unique_ptr<git_remote, RemoteCloser> remote(remote_raw);
  const char* origin = git_remote_url(remote.get());
  if (origin == nullptr || url != origin) {
    return absl::FailedPreconditionError(
        Concat(dir, " is a clone of ", origin != nullptr ? origin : "(no URL)", ", not of ", url));
  }
  git_fetch_options options;
  git_fetch_options_init(&options, GIT_FETCH_OPTIONS_VERSION);
  Install(options.callbacks, callbacks);
  options.prune = GIT_FETCH_PRUNE;
  char refspec[] = "+refs/heads/*:refs/remotes/origin/*";
  char* refspecs[] = {refspec};
  const git_strarray specs = {refspecs, 1};
  if (git_remote_fetch(remote.get(), &specs, &options, nullptr) != 0)
    return Error(Concat("fetching ", url), auth);
  return absl::OkStatus();
}

absl::Status PushBranch(const std::string& dir, const std::string& url, const std::string& branch,
                        const std::string& protected_branch, const GitAuth& auth) {
  if (branch.empty() || branch == protected_branch) {
    return absl::FailedPreconditionError(
        Concat("refusing to push to the default branch ", protected_branch));
  }
  EnsureLibgit2();
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, dir.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) {
    return Libgit2Error(Concat("opening ", dir));
  }
  std::unique_ptr<git_repository, RepoCloser> repo(raw);
  git_remote* remote_raw = nullptr;
  if (git_remote_create_anonymous(&remote_raw, repo.get(), url.c_str()) != 0)
    return Error(Concat("pushing to ", url), auth);
  std::unique_ptr<git_remote, RemoteCloser> remote(remote_raw);
  Callbacks callbacks;
  callbacks.auth = &auth;
  git_push_options options;
  git_push_options_init(&options, GIT_PUSH_OPTIONS_VERSION);
  Install(options.callbacks, callbacks);
  std::string refspec = Concat("+refs/heads/", branch, ":refs/heads/", branch);
  char* refspecs[] = {refspec.data()};
  const git_strarray specs = {refspecs, 1};
  if (git_remote_push(remote.get(), &specs, &options) != 0)
    return Error(Concat("pushing ", branch, " to ", url), auth);
  if (!callbacks.rejected.empty()) {
    return absl::UnavailableError(
        Concat("pushing ", branch, " to ", url, ": the remote rejected ", callbacks.rejected));
  }
  return absl::OkStatus();
}

}  // namespace smallfix
