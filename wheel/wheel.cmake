# The wheel's contents (pyproject.toml; scikit-build-core sets SKBUILD and installs into
# site-packages/smallfix/). The package mirrors the checkout's layout, so the binary finds its
# data as it does from build/, in the nearest folder above itself that has it
# (engine/patterns/catalogue.cc, validators/warm/warm_server.cc, validators/facts/fact_plugin.cc):
#   bin/smallfix  lib/ (bundled libraries)  templates/  api_history/  validators/ (the Python scripts)

install(TARGETS smallfix RUNTIME DESTINATION bin)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/templates ${CMAKE_SOURCE_DIR}/api_history DESTINATION .)
file(GLOB_RECURSE validator_scripts RELATIVE ${CMAKE_SOURCE_DIR} CONFIGURE_DEPENDS
     ${CMAKE_SOURCE_DIR}/validators/*.py)
foreach(script ${validator_scripts})
  get_filename_component(folder ${script} DIRECTORY)
  install(FILES ${CMAKE_SOURCE_DIR}/${script} DESTINATION ${folder})
endforeach()

# Every shared library the binary loads, except glibc's and the compiler runtime that any
# Linux has (the libraries manylinux allows), is copied into lib/. The binary's DT_RPATH
# (not DT_RUNPATH: --disable-new-dtags) points there; the loader also searches an
# executable's DT_RPATH for the libraries' own dependencies (libcurl's libnghttp2, ...),
# so the copies need no patching.
set_target_properties(smallfix PROPERTIES INSTALL_RPATH "$ORIGIN/../lib")
target_link_options(smallfix PRIVATE -Wl,--disable-new-dtags)
set(SMALLFIX_SYSTEM_LIBRARIES
    "^(ld-linux-x86-64|libc|libm|libdl|librt|libpthread|libresolv|libstdc\\+\\+|libgcc_s)\\.so")
install(CODE "set(binary \"$<TARGET_FILE:smallfix>\")
              set(system \"${SMALLFIX_SYSTEM_LIBRARIES}\")")
install(SCRIPT ${CMAKE_CURRENT_LIST_DIR}/bundle_libraries.cmake)
