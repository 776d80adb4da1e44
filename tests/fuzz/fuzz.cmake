# The log parser's fuzz target (included from engine/localize/CMakeLists.txt, next to the
# library it fuzzes). With clang and -DSMALLFIX_LIBFUZZER=ON it is a libFuzzer binary
# (scripts/fuzz.sh); otherwise a plain driver that replays inputs given on the command line.
option(SMALLFIX_LIBFUZZER "Build log_parser_fuzzer with libFuzzer (clang only)" OFF)
add_executable(log_parser_fuzzer ${CMAKE_SOURCE_DIR}/tests/fuzz/log_parser_fuzzer.cc)
target_link_libraries(log_parser_fuzzer PRIVATE smallfix_localize)
target_include_directories(log_parser_fuzzer PRIVATE ${CMAKE_SOURCE_DIR})
target_compile_options(log_parser_fuzzer PRIVATE ${SMALLFIX_WARNINGS})
if(SMALLFIX_LIBFUZZER)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "SMALLFIX_LIBFUZZER needs clang (CMAKE_CXX_COMPILER=clang++)")
  endif()
  target_compile_definitions(log_parser_fuzzer PRIVATE SMALLFIX_LIBFUZZER)
  target_compile_options(log_parser_fuzzer PRIVATE -fsanitize=fuzzer,address)
  target_link_options(log_parser_fuzzer PRIVATE -fsanitize=fuzzer,address)
endif()
set_target_properties(log_parser_fuzzer PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
