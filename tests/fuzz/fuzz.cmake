# The fuzz targets (included from the top-level CMakeLists.txt), one per reader of outside
# input. With clang and -DSMALLFIX_LIBFUZZER=ON each is a libFuzzer binary (scripts/fuzz.sh
# TARGET SECONDS); otherwise a plain driver that replays the inputs given on its command line
# (tests/fuzz/fuzz_main.h), which the suite runs over each target's seeds.
option(SMALLFIX_LIBFUZZER "Build the *_fuzzer targets with libFuzzer (clang only)" OFF)
if(SMALLFIX_LIBFUZZER AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "SMALLFIX_LIBFUZZER needs clang (CMAKE_CXX_COMPILER=clang++)")
endif()

# smallfix_fuzzer(NAME LIBRARY...): tests/fuzz/NAME.cc linked with the engine libraries it reads.
function(smallfix_fuzzer name)
  add_executable(${name} ${CMAKE_SOURCE_DIR}/tests/fuzz/${name}.cc)
  target_link_libraries(${name} PRIVATE ${ARGN})
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR})
  target_compile_options(${name} PRIVATE ${SMALLFIX_WARNINGS})
  target_compile_definitions(${name} PRIVATE SMALLFIX_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
  if(SMALLFIX_LIBFUZZER)
    target_compile_definitions(${name} PRIVATE SMALLFIX_LIBFUZZER)
    target_compile_options(${name} PRIVATE -fsanitize=fuzzer,address)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer,address)
  endif()
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
endfunction()

# One target per line of targets.txt: NAME LIBRARY SEED_DIR...
file(STRINGS ${CMAKE_SOURCE_DIR}/tests/fuzz/targets.txt SMALLFIX_FUZZ_LINES REGEX "^[a-z]")
set(SMALLFIX_FUZZ_TARGETS "")
foreach(line ${SMALLFIX_FUZZ_LINES})
  separate_arguments(fields UNIX_COMMAND "${line}")
  list(GET fields 0 name)
  list(GET fields 1 library)
  smallfix_fuzzer(${name} ${library})
  list(APPEND SMALLFIX_FUZZ_TARGETS ${name})
endforeach()
