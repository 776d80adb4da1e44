#include "engine/repair/model_lines.h"

#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"

namespace smallfix {

bool WrittenByModel(const Candidate& candidate) { return candidate.template_id == "llm"; }

std::vector<std::string> AddedLines(const std::string& diff) {
  std::vector<std::string> out;
  std::istringstream in(diff);
  std::string line, file;
  int next = 0;  // the new file's number of the next context or added line
  while (std::getline(in, line)) {
    if (line.rfind("+++ ", 0) == 0) {
      file = line.substr(4);
      if (file.rfind("b/", 0) == 0) file = file.substr(2);
    } else if (line.rfind("@@ ", 0) == 0) {
      // "@@ -a,b +c,d @@": the hunk's new lines start at c.
      const size_t plus = line.find(" +");
      const size_t end = line.find_first_of(", ", plus + 2);
      if (plus == std::string::npos ||
          !absl::SimpleAtoi(line.substr(plus + 2, end - plus - 2), &next))
        next = 0;
    } else if (!line.empty() && line[0] == '+') {
      out.push_back(absl::StrFormat("%s:%d: %s", file, next++, line.substr(1)));
    } else if (!line.empty() && line[0] == ' ') {
      ++next;
    }
  }
  return out;
}

}  // namespace smallfix
