#include "engine/rank/llm_cache.h"

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/read_file.h"
#include "engine/rank/llm_client.h"

namespace smallfix {
namespace {

uint64_t Fnv1a(std::string_view text, uint64_t seed) {
  uint64_t hash = seed;
  for (unsigned char byte : text) {
    hash ^= byte;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

}  // namespace

std::string StableHash(std::string_view text) {
  // Two FNV-1a passes from different offsets: a file name, not a security boundary (each
  // cache file also holds its request and is compared in full).
  return absl::StrFormat("%016x%016x", Fnv1a(text, 0xcbf29ce484222325ULL),
                         Fnv1a(text, 0x84222325cbf29ce4ULL));
}

std::string LlmCache::DefaultDir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && xdg[0] != '\0') {
    return Concat(xdg, "/smallfix/llm");
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && home[0] != '\0') {
    return Concat(home, "/.cache/smallfix/llm");
  }
  return "";
}

std::string LlmCache::PathFor(const std::string& url, const nlohmann::json& request) const {
  return Concat(dir_, "/", StableHash(Concat(url, "\n", request.dump())), ".json");
}

std::optional<nlohmann::json> LlmCache::Get(const std::string& url,
                                            const nlohmann::json& request) const {
  if (dir_.empty()) return std::nullopt;
  absl::StatusOr<std::string> text = ReadFile(PathFor(url, request));
  if (!text.ok()) return std::nullopt;
  nlohmann::json entry = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!entry.is_object() || JsonString(entry, "url") != url || !entry.contains("request") ||
      entry["request"] != request || !entry.contains("answer")) {
    return std::nullopt;
  }
  return entry["answer"];
}

void LlmCache::Put(const std::string& url, const nlohmann::json& request,
                   const nlohmann::json& answer) const {
  if (dir_.empty()) return;
  std::error_code error;
  std::filesystem::create_directories(dir_, error);
  if (error) return;
  const std::string path = PathFor(url, request);
  // Unique per process and thread: bench repairs several bugs at once in one process.
  const std::string temporary =
      absl::StrFormat("%s.%d.%x.tmp", path, static_cast<int>(::getpid()),
                      std::hash<std::thread::id>()(std::this_thread::get_id()));
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << nlohmann::json{{"url", url}, {"request", request}, {"answer", answer}}.dump(1) << "\n";
    if (!out) {
      std::filesystem::remove(temporary, error);
      return;
    }
  }
  std::filesystem::rename(temporary, path, error);
  if (error) std::filesystem::remove(temporary, error);
}

}  // namespace smallfix
