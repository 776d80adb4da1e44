# Install-time step of wheel/wheel.cmake: copies the shared libraries that `binary` needs,
# except those matching `system`, into ${CMAKE_INSTALL_PREFIX}/lib under their sonames.
file(GET_RUNTIME_DEPENDENCIES
  EXECUTABLES "${binary}"
  RESOLVED_DEPENDENCIES_VAR libraries
  UNRESOLVED_DEPENDENCIES_VAR unresolved
  PRE_EXCLUDE_REGEXES "${system}")
if(unresolved)
  message(FATAL_ERROR "wheel: cannot find the libraries ${unresolved} that ${binary} needs")
endif()
file(MAKE_DIRECTORY "${CMAKE_INSTALL_PREFIX}/lib")
foreach(library ${libraries})
  # The loader asks for the soname (libcurl.so.4); the file behind it is the real library.
  get_filename_component(soname "${library}" NAME)
  file(REAL_PATH "${library}" real)
  message(STATUS "Bundling: ${soname}")
  file(COPY_FILE "${real}" "${CMAKE_INSTALL_PREFIX}/lib/${soname}")
endforeach()
