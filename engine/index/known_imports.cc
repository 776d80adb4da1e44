#include "engine/index/known_imports.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace smallfix {
namespace {

// Sorted, for binary search.
constexpr std::string_view kStdlibModules[] = {
    "abc", "aifc", "argparse", "array", "ast", "asynchat", "asyncio", "asyncore", "atexit",
    "audioop", "base64", "bdb", "binascii", "bisect", "builtins", "bz2", "cProfile", "calendar",
    "cgi", "cgitb", "chunk", "cmath", "cmd", "code", "codecs", "codeop", "collections",
    "colorsys", "compileall", "concurrent", "configparser", "contextlib", "contextvars", "copy",
    "copyreg", "crypt", "csv", "ctypes", "curses", "dataclasses", "datetime", "dbm", "decimal",
    "difflib", "dis", "distutils", "doctest", "email", "encodings", "ensurepip", "enum",
    "errno", "faulthandler", "fcntl", "filecmp", "fileinput", "fnmatch", "fractions", "ftplib",
    "functools", "gc", "getopt", "getpass", "gettext", "glob", "graphlib", "grp", "gzip",
    "hashlib", "heapq", "hmac", "html", "http", "imaplib", "imghdr", "imp", "importlib",
    "inspect", "io", "ipaddress", "itertools", "json", "keyword", "lib2to3", "linecache",
    "locale", "logging", "lzma", "mailbox", "mailcap", "marshal", "math", "mimetypes", "mmap",
    "modulefinder", "multiprocessing", "netrc", "nis", "nntplib", "numbers", "opcode",
    "operator", "optparse", "os", "ossaudiodev", "pathlib", "pdb", "pickle", "pickletools",
    "pipes", "pkgutil", "platform", "plistlib", "poplib", "posix", "pprint", "profile",
    "pstats", "pty", "pwd", "py_compile", "pyclbr", "pydoc", "pyexpat", "queue", "quopri",
    "random", "re", "readline", "reprlib", "resource", "rlcompleter", "runpy", "sched",
    "secrets", "select", "selectors", "shelve", "shlex", "shutil", "signal", "site", "smtpd",
    "smtplib", "sndhdr", "socket", "socketserver", "spwd", "sqlite3", "sre_compile",
    "sre_constants", "sre_parse", "ssl", "stat", "statistics", "string", "stringprep", "struct",
    "subprocess", "sunau", "symtable", "sys", "sysconfig", "syslog", "tabnanny", "tarfile",
    "telnetlib", "tempfile", "termios", "textwrap", "threading", "time", "timeit", "tkinter",
    "token", "tokenize", "tomllib", "trace", "traceback", "tracemalloc", "tty", "turtle",
    "types", "typing", "unicodedata", "unittest", "urllib", "uu", "uuid", "venv", "warnings",
    "wave", "weakref", "webbrowser", "wsgiref", "xdrlib", "xml", "xmlrpc", "zipapp", "zipfile",
    "zipimport", "zlib", "zoneinfo"
};

// name -> the standard-library module it is imported from; sorted by name.
constexpr std::pair<std::string_view, std::string_view> kStdlibNames[] = {
    {"ABC", "abc"},
    {"ABCMeta", "abc"},
    {"Any", "typing"},
    {"AnyStr", "typing"},
    {"Awaitable", "typing"},
    {"Callable", "typing"},
    {"ClassVar", "typing"},
    {"Coroutine", "typing"},
    {"Counter", "collections"},
    {"DefaultDict", "typing"},
    {"Deque", "typing"},
    {"Dict", "typing"},
    {"Enum", "enum"},
    {"ExitStack", "contextlib"},
    {"Final", "typing"},
    {"FrozenSet", "typing"},
    {"Generator", "typing"},
    {"Generic", "typing"},
    {"Hashable", "typing"},
    {"IntEnum", "enum"},
    {"Iterable", "typing"},
    {"Iterator", "typing"},
    {"List", "typing"},
    {"Literal", "typing"},
    {"Mapping", "typing"},
    {"MutableMapping", "typing"},
    {"MutableSequence", "typing"},
    {"NamedTuple", "typing"},
    {"NoReturn", "typing"},
    {"Optional", "typing"},
    {"OrderedDict", "collections"},
    {"Path", "pathlib"},
    {"Protocol", "typing"},
    {"Sequence", "typing"},
    {"Set", "typing"},
    {"TYPE_CHECKING", "typing"},
    {"Tuple", "typing"},
    {"Type", "typing"},
    {"TypeVar", "typing"},
    {"TypedDict", "typing"},
    {"Union", "typing"},
    {"abstractmethod", "abc"},
    {"asdict", "dataclasses"},
    {"auto", "enum"},
    {"cast", "typing"},
    {"contextmanager", "contextlib"},
    {"dataclass", "dataclasses"},
    {"deepcopy", "copy"},
    {"defaultdict", "collections"},
    {"deque", "collections"},
    {"field", "dataclasses"},
    {"fields", "dataclasses"},
    {"get_type_hints", "typing"},
    {"is_dataclass", "dataclasses"},
    {"lru_cache", "functools"},
    {"namedtuple", "collections"},
    {"no_type_check", "typing"},
    {"nullcontext", "contextlib"},
    {"overload", "typing"},
    {"partial", "functools"},
    {"reduce", "functools"},
    {"runtime_checkable", "typing"},
    {"suppress", "contextlib"},
    {"wraps", "functools"}
};

constexpr std::pair<std::string_view, std::string_view> kUnloadedSubmodules[] = {
    {"concurrent", "futures"}, {"email", "mime"},       {"email", "utils"},        {"http", "client"},
    {"http", "server"},        {"importlib", "abc"},    {"importlib", "machinery"}, {"importlib", "metadata"},
    {"importlib", "resources"}, {"importlib", "util"},  {"logging", "config"},     {"logging", "handlers"},
    {"multiprocessing", "pool"}, {"unittest", "mock"},  {"urllib", "error"},       {"urllib", "parse"},
    {"urllib", "request"},     {"xml", "dom"},          {"xml", "etree"}};

constexpr std::pair<std::string_view, std::string_view> kConventional[] = {
    {"F", "import torch.nn.functional as F"},
    {"np", "import numpy as np"},
    {"pd", "import pandas as pd"},
    {"plt", "import matplotlib.pyplot as plt"},
    {"torch", "import torch"},
};

}  // namespace

bool IsStdlibModule(std::string_view name) {
  return std::binary_search(std::begin(kStdlibModules), std::end(kStdlibModules), name);
}

std::string_view StdlibModuleOf(std::string_view name) {
  auto it = std::lower_bound(std::begin(kStdlibNames), std::end(kStdlibNames), name,
                             [](const auto& entry, std::string_view key) { return entry.first < key; });
  return it != std::end(kStdlibNames) && it->first == name ? it->second : std::string_view();
}

std::vector<std::string_view> UnloadedSubmodules(std::string_view package) {
  std::vector<std::string_view> out;
  for (const auto& [parent, sub] : kUnloadedSubmodules) {
    if (parent == package) out.push_back(sub);
  }
  return out;
}

std::string_view ConventionalImport(std::string_view name) {
  for (const auto& [alias, statement] : kConventional) {
    if (alias == name) return statement;
  }
  return {};
}

}  // namespace smallfix
