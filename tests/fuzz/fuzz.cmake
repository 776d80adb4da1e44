# The fuzz targets (included from the top-level CMakeLists.txt): log_parser_fuzzer (every reader of
# failure text) and shapes_fuzzer (host prefixes, packaging metadata, recursion cycles, named
# classes, argument checks). With clang and -DSMALLFIX_LIBFUZZER=ON each is a libFuzzer binary
# (scripts/fuzz.sh TARGET); otherwise a plain driver that replays inputs given on the command line.
option(SMALLFIX_LIBFUZZER "Build the fuzz targets with libFuzzer (clang only)" OFF)
if(SMALLFIX_LIBFUZZER AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "SMALLFIX_LIBFUZZER needs clang (CMAKE_CXX_COMPILER=clang++)")
endif()
foreach(fuzzer log_parser_fuzzer shapes_fuzzer)
  add_executable(${fuzzer} ${CMAKE_SOURCE_DIR}/tests/fuzz/${fuzzer}.cc)
  target_link_libraries(${fuzzer} PRIVATE smallfix_localize)
  target_include_directories(${fuzzer} PRIVATE ${CMAKE_SOURCE_DIR})
  target_compile_options(${fuzzer} PRIVATE ${SMALLFIX_WARNINGS})
  if(SMALLFIX_LIBFUZZER)
    target_compile_definitions(${fuzzer} PRIVATE SMALLFIX_LIBFUZZER)
    target_compile_options(${fuzzer} PRIVATE -fsanitize=fuzzer,address)
    target_link_options(${fuzzer} PRIVATE -fsanitize=fuzzer,address)
  endif()
  set_target_properties(${fuzzer} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
endforeach()
