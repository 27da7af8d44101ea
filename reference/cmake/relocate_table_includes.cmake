# relocate_table_includes.cmake: run by `cmake --install` (reference/CMakeLists.txt, install(CODE)) after the headers
# and tables are copied. In the source tree a header of include/accord/reference/ reads a table as
# "../../../tables/<name>.def" (reference/tables/); installed, the tables are in tables/ next to the headers, so each
# installed header's include is rewritten to "tables/<name>.def". Input: ACCORD_INSTALLED_HEADERS, the headers' folder
# (relative to CMAKE_INSTALL_PREFIX, or absolute).
set(_dir "${ACCORD_INSTALLED_HEADERS}")
if(NOT IS_ABSOLUTE "${_dir}")
  set(_dir "${CMAKE_INSTALL_PREFIX}/${_dir}")
endif()
set(_dir "$ENV{DESTDIR}${_dir}")
file(GLOB _headers "${_dir}/*.h")
set(_count 0)
foreach(_header IN LISTS _headers)
  file(READ "${_header}" _text)
  string(REPLACE "#include \"../../../tables/" "#include \"tables/" _relocated "${_text}")
  if(NOT _relocated STREQUAL _text)
    file(WRITE "${_header}" "${_relocated}")
    math(EXPR _count "${_count} + 1")
  endif()
  if(_relocated MATCHES "#include \"\\.\\./")  # any other path out of the installed tree would not resolve
    message(FATAL_ERROR "${_header}: an #include \"../...\" that the installed layout does not have")
  endif()
endforeach()
message(STATUS "Table includes relocated: ${_count} headers in ${_dir}")
