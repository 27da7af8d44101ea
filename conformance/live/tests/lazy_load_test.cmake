# lazy_load_test.cmake: `accord` loads LibTorch only for a live command (conformance/cli/live_plugin.cc).
#   cmake -DACCORD=<accord> -P lazy_load_test.cmake
# 1. The command's ELF needs no LibTorch, c10, gloo or live library (readelf -d, NEEDED).
# 2. A non-live command maps none of them (LD_DEBUG=libs lists every library the loader opens).
# 3. `accord probe --compact` opens the live library and prints the hardware block.
# 4. With ACCORD_LIVE_LIBRARY naming a missing file, `accord probe` exits 2 and says what it tried.
set(heavy "libtorch|libc10|libgloo|libconformance_live")
execute_process(COMMAND readelf -d ${ACCORD} OUTPUT_VARIABLE elf RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "readelf -d ${ACCORD} failed (${rc})")
endif()
string(REGEX MATCHALL "NEEDED[^\n]*" needed "${elf}")
foreach(line IN LISTS needed)
  if(line MATCHES "${heavy}")
    message(FATAL_ERROR "accord links a live library at start-up: ${line}")
  endif()
endforeach()

execute_process(COMMAND ${CMAKE_COMMAND} -E env LD_DEBUG=libs ${ACCORD} list profiles
                OUTPUT_VARIABLE out ERROR_VARIABLE loader RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "lightning-2.2")
  message(FATAL_ERROR "accord list profiles: exit ${rc}\n${out}")
endif()
if(loader MATCHES "(${heavy})[^ \n]*\\.so")
  message(FATAL_ERROR "accord list profiles loaded ${CMAKE_MATCH_0}")
endif()

execute_process(COMMAND ${ACCORD} probe --compact OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\"hardware\":")
  message(FATAL_ERROR "accord probe --compact: exit ${rc}\n${out}\n${err}")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} -E env ACCORD_LIVE_LIBRARY=/nonexistent/libconformance_live.so ${ACCORD} probe
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "cannot be opened: /nonexistent/libconformance_live.so: no such file")
  message(FATAL_ERROR "accord probe without its live library: exit ${rc}\n${err}")
endif()
message(STATUS "accord needs no LibTorch at start-up, a non-live command loads none, probe loads it")
