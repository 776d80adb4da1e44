#ifndef SMALLFIX_TESTS_FORGE_FAKE_GITHUB_SERVER_H_
#define SMALLFIX_TESTS_FORGE_FAKE_GITHUB_SERVER_H_

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/base/temp_dir.h"

namespace smallfix::testing {

// tests/forge/fake_github.py on a free loopback port, seeded with `seed`, for one test.
// requests() reads the JSON lines it recorded. The process ends with the object.
class FakeGitHubServer {
 public:
  explicit FakeGitHubServer(const nlohmann::json& seed) : dir_(*TempDir::Create("fake-github")) {
    const std::filesystem::path path = dir_.path();
    std::ofstream(path / "seed.json") << seed.dump();
    const std::string script = std::string(SMALLFIX_SOURCE_DIR) + "/tests/forge/fake_github.py";
    const std::string state = dir_.path();
    pid_ = fork();
    if (pid_ == 0) {
      execl("/usr/bin/python3", "python3", script.c_str(), state.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 200 && !std::filesystem::exists(path / "port"); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    std::ifstream in(path / "port");
    in >> port_;
  }
  ~FakeGitHubServer() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  FakeGitHubServer(const FakeGitHubServer&) = delete;
  FakeGitHubServer& operator=(const FakeGitHubServer&) = delete;

  bool started() const { return port_ > 0; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  std::vector<nlohmann::json> requests() const {
    std::vector<nlohmann::json> out;
    std::ifstream in(std::filesystem::path(dir_.path()) / "requests.jsonl");
    for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
    return out;
  }

 private:
  TempDir dir_;
  pid_t pid_ = -1;
  int port_ = 0;
};

}  // namespace smallfix::testing

#endif  // SMALLFIX_TESTS_FORGE_FAKE_GITHUB_SERVER_H_
