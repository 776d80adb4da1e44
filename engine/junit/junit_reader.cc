#include "engine/junit/junit_reader.h"

#include <map>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace smallfix {
namespace {

void AppendUtf8(unsigned code, std::string* out) {
  if (code == 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) code = 0xfffd;
  if (code < 0x80) {
    out->push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    out->push_back(static_cast<char>(0xc0 | (code >> 6)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
  } else if (code < 0x10000) {
    out->push_back(static_cast<char>(0xe0 | (code >> 12)));
    out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
  } else {
    out->push_back(static_cast<char>(0xf0 | (code >> 18)));
    out->push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
  }
}

// Decodes entities and CDATA sections of character data or an attribute value.
std::string Decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i, 9) == "<![CDATA[") {
      const size_t end = text.find("]]>", i + 9);
      const size_t stop = end == std::string_view::npos ? text.size() : end;
      out.append(text.substr(i + 9, stop - i - 9));
      i = end == std::string_view::npos ? text.size() : end + 2;
      continue;
    }
    if (text[i] != '&') {
      out.push_back(text[i]);
      continue;
    }
    const size_t semicolon = text.find(';', i);
    if (semicolon == std::string_view::npos || semicolon - i > 10) {
      out.push_back('&');
      continue;
    }
    const std::string_view entity = text.substr(i + 1, semicolon - i - 1);
    static const std::map<std::string_view, char> kNamed = {
        {"lt", '<'}, {"gt", '>'}, {"amp", '&'}, {"quot", '"'}, {"apos", '\''}};
    if (auto it = kNamed.find(entity); it != kNamed.end()) {
      out.push_back(it->second);
    } else if (entity.size() > 1 && entity[0] == '#') {
      unsigned code = 0;
      const bool hex = entity[1] == 'x' || entity[1] == 'X';
      for (char c : entity.substr(hex ? 2 : 1)) {
        const int digit = (c >= '0' && c <= '9')          ? c - '0'
                          : hex && (c >= 'a' && c <= 'f') ? c - 'a' + 10
                          : hex && (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                                          : -1;
        if (digit < 0 || code > 0x10ffff) {
          code = 0xfffd;
          break;
        }
        code = code * (hex ? 16 : 10) + digit;
      }
      AppendUtf8(code, &out);
    } else {
      out.append(text.substr(i, semicolon - i + 1));
    }
    i = semicolon;
  }
  return out;
}

struct Tag {
  std::string name;
  std::map<std::string, std::string> attributes;
  bool closing = false;       // </name>
  bool self_closing = false;  // <name/>
  size_t end = 0;             // one past '>'
};

// Parses the tag starting at xml[start] == '<'. Comments, declarations and processing
// instructions come back with an empty name.
absl::StatusOr<Tag> ReadTag(std::string_view xml, size_t start) {
  Tag tag;
  if (xml.substr(start, 4) == "<!--") {
    const size_t end = xml.find("-->", start + 4);
    if (end == std::string_view::npos)
      return absl::InvalidArgumentError(absl::StrFormat("unterminated comment at byte %d", start));
    tag.end = end + 3;
    return tag;
  }
  if (xml.substr(start, 2) == "<?" || xml.substr(start, 2) == "<!") {
    const size_t end = xml.find('>', start);
    if (end == std::string_view::npos)
      return absl::InvalidArgumentError(
          absl::StrFormat("unterminated declaration at byte %d", start));
    tag.end = end + 1;
    return tag;
  }
  size_t i = start + 1;
  if (i < xml.size() && xml[i] == '/') {
    tag.closing = true;
    ++i;
  }
  auto is_name = [](char c) {
    return c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '>' && c != '/' && c != '=';
  };
  const size_t name_start = i;
  while (i < xml.size() && is_name(xml[i])) ++i;
  tag.name = std::string(xml.substr(name_start, i - name_start));
  while (true) {
    while (i < xml.size() && (xml[i] == ' ' || xml[i] == '\t' || xml[i] == '\n' || xml[i] == '\r'))
      ++i;
    if (i >= xml.size()) {
      return absl::InvalidArgumentError(absl::StrFormat("unterminated tag at byte %d", start));
    }
    if (xml[i] == '>') {
      tag.end = i + 1;
      return tag;
    }
    if (xml[i] == '/' && i + 1 < xml.size() && xml[i + 1] == '>') {
      tag.self_closing = true;
      tag.end = i + 2;
      return tag;
    }
    const size_t key_start = i;
    while (i < xml.size() && is_name(xml[i])) ++i;
    if (i == key_start) {
      return absl::InvalidArgumentError(absl::StrFormat("bad attribute at byte %d", i));
    }
    const std::string key(xml.substr(key_start, i - key_start));
    while (i < xml.size() && xml[i] == ' ') ++i;
    if (i >= xml.size() || xml[i] != '=') {
      tag.attributes[key] = "";
      continue;
    }
    ++i;
    while (i < xml.size() && xml[i] == ' ') ++i;
    if (i >= xml.size() || (xml[i] != '"' && xml[i] != '\'')) {
      return absl::InvalidArgumentError(absl::StrFormat("unquoted attribute at byte %d", i));
    }
    const char quote = xml[i];
    const size_t value_end = xml.find(quote, i + 1);
    if (value_end == std::string_view::npos) {
      return absl::InvalidArgumentError(absl::StrFormat("unterminated attribute at byte %d", i));
    }
    tag.attributes[key] = Decode(xml.substr(i + 1, value_end - i - 1));
    i = value_end + 1;
  }
}

}  // namespace

bool LooksLikeJUnit(std::string_view text) {
  const std::string_view head = text.substr(0, 4096);
  return head.find("<testsuite") != std::string_view::npos;
}

absl::StatusOr<std::vector<JUnitCase>> ReadJUnit(std::string_view xml) {
  std::vector<JUnitCase> cases;
  JUnitCase* current = nullptr;
  bool in_case = false;
  size_t i = 0;
  while (true) {
    const size_t open = xml.find('<', i);
    if (open == std::string_view::npos) break;
    if (xml.substr(open, 9) == "<![CDATA[") {  // character data outside a failure body
      const size_t end = xml.find("]]>", open);
      i = end == std::string_view::npos ? xml.size() : end + 3;
      continue;
    }
    absl::StatusOr<Tag> tag = ReadTag(xml, open);
    if (!tag.ok()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("JUnit XML is malformed: %s", tag.status().message()));
    }
    i = tag->end;
    if (tag->name == "testcase") {
      if (tag->closing) {
        in_case = false;
        continue;
      }
      cases.push_back(JUnitCase());
      current = &cases.back();
      current->classname = tag->attributes["classname"];
      current->name = tag->attributes["name"];
      in_case = !tag->self_closing;
      continue;
    }
    if (!in_case || current == nullptr || tag->closing) continue;
    using Outcome = JUnitCase::Outcome;
    Outcome outcome;
    if (tag->name == "failure")
      outcome = Outcome::kFailed;
    else if (tag->name == "error")
      outcome = Outcome::kError;
    else if (tag->name == "skipped")
      outcome = Outcome::kSkipped;
    else
      continue;
    if (current->outcome == Outcome::kPassed || outcome == Outcome::kFailed) {
      current->outcome = outcome;
      current->message = tag->attributes["message"];
    }
    if (tag->self_closing) continue;
    // The body runs to the matching close tag; failures do not nest.
    const std::string close = "</" + tag->name + ">";
    const size_t end = xml.find(close, i);
    if (end == std::string_view::npos) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "JUnit XML is malformed: <%s> at byte %d is never closed", tag->name, open));
    }
    if (outcome != Outcome::kSkipped) {
      if (!current->text.empty()) current->text += "\n";
      current->text += Decode(xml.substr(i, end - i));
    }
    i = end + close.size();
  }
  return cases;
}

void TallyCases(const std::vector<JUnitCase>& cases, CaseTally& tally) {
  for (const JUnitCase& test : cases) {
    if (test.outcome == JUnitCase::Outcome::kSkipped) continue;
    ++tally.tests;
    if (IsFailure(test)) {
      ++tally.failures;
      tally.failed.push_back(test.name);
    } else {
      tally.passed.push_back(test.name);
    }
  }
}

}  // namespace smallfix
