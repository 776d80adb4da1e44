// smallfix: repairs the small bugs that break distributed LLM training and inference code.
#include <CLI/CLI.hpp>

#include <iostream>

int main(int argc, char** argv) {
  CLI::App app{"smallfix: template-based repair of small bugs in distributed training code"};
  app.set_version_flag("--version", std::string("smallfix 0.1.0"));
  app.require_subcommand(0);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // CLI11 exits 0 for --help/--version and 106+ for bad flags; the contract says 2.
    const int rc = app.exit(error);
    return rc == 0 ? 0 : 2;
  }
  std::cout << app.help();
  return 0;
}
