# test_package.cmake: builds and runs reference/examples/consumer/ the two ways a user gets accord (ctests of
# reference/examples/CMakeLists.txt; reference/CPP-API.md). Run as
#   cmake -DACCORD_MODE=package -DACCORD_SOURCE_DIR=<src> -DACCORD_BUILD_DIR=<built tree> [-DACCORD_CONFIG=<cfg>]
#         [-DACCORD_GENERATOR=<gen>] [-DACCORD_MAKE_PROGRAM=<ninja>] [-DACCORD_CXX_COMPILER=<c++>]
#         [-DACCORD_CXX_LAUNCHER=<ccache>] -P test_package.cmake
#   cmake -DACCORD_MODE=fetchcontent -DACCORD_SOURCE_DIR=<src> [same options] -P test_package.cmake
# package: `cmake --install` of the built tree (no rebuild) into a new prefix under $TMPDIR (or /tmp); the example
#   configured with find_package(accord 0.1) and -DCMAKE_PREFIX_PATH=<prefix> (and checked to have found that one),
#   built and run; a program that includes every installed header and links accord::conformance, built and run; the
#   installed `accord list profiles`.
# fetchcontent: the example with -DACCORD_FETCH_SOURCE=<src> and GTest, RapidCheck, Google Benchmark and LibTorch
#   unfindable (CMAKE_DISABLE_FIND_PACKAGE_*): accord must configure, define no test, benchmark or fuzz target, and
#   the example (Debug, only its target: the reference library and main.cc) must build and run.
# Everything happens in one new folder under $TMPDIR, removed at the end (kept on failure when ACCORD_KEEP_TMP=1).
cmake_minimum_required(VERSION 3.20)

foreach(_var ACCORD_MODE ACCORD_SOURCE_DIR)
  if(NOT ${_var})
    message(FATAL_ERROR "test_package.cmake: -D${_var}=... is required")
  endif()
endforeach()
if(ACCORD_MODE STREQUAL "package" AND NOT ACCORD_BUILD_DIR)
  message(FATAL_ERROR "test_package.cmake: -DACCORD_BUILD_DIR=... is required in package mode")
endif()
unset(ENV{DESTDIR})  # the install goes to the prefix, nowhere else

# The temporary folder: outside every build tree, one per run.
set(_tmp_root "$ENV{TMPDIR}")
if(NOT _tmp_root OR NOT IS_DIRECTORY "${_tmp_root}")
  set(_tmp_root /tmp)
endif()
string(TIMESTAMP _stamp "%Y%m%d%H%M%S")
string(RANDOM LENGTH 8 ALPHABET abcdefghijklmnopqrstuvwxyz0123456789 _random)
set(_tmp "${_tmp_root}/accord-${ACCORD_MODE}-${_stamp}-${_random}")
file(MAKE_DIRECTORY "${_tmp}")
message(STATUS "test_package: ${ACCORD_MODE} in ${_tmp}")

function(cleanup)
  file(REMOVE_RECURSE "${_tmp}")
endfunction()
function(fail what)
  if("$ENV{ACCORD_KEEP_TMP}" STREQUAL "1")
    message(FATAL_ERROR "test_package: ${what} (kept ${_tmp})")
  endif()
  cleanup()
  message(FATAL_ERROR "test_package: ${what}")
endfunction()

# run(<name> <command>...): runs a step, prints its output, fails the test when it exits non-zero; the output is
# left in <name>_OUT for checks.
function(run name)
  string(TIMESTAMP _t0 "%s")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  string(TIMESTAMP _t1 "%s")
  math(EXPR _secs "${_t1} - ${_t0}")
  message(STATUS "test_package: ${name}: exit ${_rc} after ${_secs} s")
  if(NOT _rc EQUAL 0)
    message("${_out}")
    list(JOIN ARGN " " _command)
    fail("${name} failed: ${_command}")
  endif()
  set(${name}_OUT "${_out}" PARENT_SCOPE)
endfunction()

# find_program_in(<var> <build dir> <name>): the executable a build made (any configuration subfolder).
function(find_program_in var dir name)
  file(GLOB_RECURSE _found "${dir}/${name}" "${dir}/${name}.exe")
  if(NOT _found)
    fail("no ${name} under ${dir}")
  endif()
  list(GET _found 0 _first)
  set(${var} "${_first}" PARENT_SCOPE)
endfunction()

function(expect name text)
  string(FIND "${${name}_OUT}" "${text}" _at)
  if(_at EQUAL -1)
    message("${${name}_OUT}")
    fail("${name}: output lacks '${text}'")
  endif()
endfunction()

# The tool chain of the build that runs the test, so the example builds as accord did.
set(_config_args)
if(ACCORD_GENERATOR)
  list(APPEND _config_args -G "${ACCORD_GENERATOR}")
endif()
if(ACCORD_MAKE_PROGRAM)
  list(APPEND _config_args "-DCMAKE_MAKE_PROGRAM=${ACCORD_MAKE_PROGRAM}")
endif()
if(ACCORD_CXX_COMPILER)
  list(APPEND _config_args "-DCMAKE_CXX_COMPILER=${ACCORD_CXX_COMPILER}")
endif()
if(ACCORD_CXX_LAUNCHER)
  list(APPEND _config_args "-DCMAKE_CXX_COMPILER_LAUNCHER=${ACCORD_CXX_LAUNCHER}")
  # ccache: the folder is new each run; let a rerun hit the cache anyway (its debug info then names the first folder).
  set(ENV{CCACHE_BASEDIR} "${_tmp}")
  set(ENV{CCACHE_NOHASHDIR} 1)
endif()
set(_example "${ACCORD_SOURCE_DIR}/reference/examples/consumer")
# The example prints the plan's strategy and each diagnostic code (consumer/main.cc).
set(_expected_lines "strategy ddp" "note warn_cpu_precision_16")

if(ACCORD_MODE STREQUAL "package")
  set(_prefix "${_tmp}/prefix")
  set(_install_args)
  if(ACCORD_CONFIG)
    set(_install_args --config "${ACCORD_CONFIG}")
  endif()
  run(install "${CMAKE_COMMAND}" --install "${ACCORD_BUILD_DIR}" --prefix "${_prefix}" ${_install_args})
  file(GLOB_RECURSE _config_files "${_prefix}/accordConfig*.cmake")
  list(LENGTH _config_files _n)
  if(NOT _n EQUAL 2)
    fail("expected accordConfig.cmake and accordConfigVersion.cmake under ${_prefix}, found: ${_config_files}")
  endif()
  file(GLOB _ref_headers RELATIVE "${_prefix}/include" "${_prefix}/include/accord/reference/*.h")
  file(GLOB _conf_headers RELATIVE "${_prefix}/include" "${_prefix}/include/accord/conformance/*.h")
  if(NOT _ref_headers OR NOT _conf_headers OR NOT EXISTS "${_prefix}/include/accord/reference/tables/flags.def")
    fail("the headers or tables are missing under ${_prefix}/include")
  endif()

  set(_pkg_args ${_config_args} "-DCMAKE_PREFIX_PATH=${_prefix}" -DCMAKE_BUILD_TYPE=Debug
                -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
  run(configure "${CMAKE_COMMAND}" -S "${_example}" -B "${_tmp}/example" ${_pkg_args})
  file(STRINGS "${_tmp}/example/CMakeCache.txt" _accord_dir REGEX "^accord_DIR:")
  string(FIND "${_accord_dir}" "${_prefix}/" _at)
  if(NOT _at GREATER -1)
    fail("find_package(accord) did not take the installed package: ${_accord_dir}")
  endif()
  run(build "${CMAKE_COMMAND}" --build "${_tmp}/example" --parallel 2)
  find_program_in(_exe "${_tmp}/example" consumer)
  run(example ${_exe})
  foreach(_line IN LISTS _expected_lines)
    expect(example "${_line}")
  endforeach()

  # Every installed header compiles in a user's program, and accord::conformance links (its private simdjson and
  # Threads through accordConfig.cmake's find_dependency).
  set(_check "${_tmp}/headers")
  set(_includes "")
  foreach(_h IN LISTS _ref_headers _conf_headers)
    string(APPEND _includes "#include \"${_h}\"\n")
  endforeach()
  file(WRITE "${_check}/main.cc" "${_includes}#include <iostream>
int main() {
  accord::conformance::FastCaseReader reader;  // simdjson, inside the static library
  accord::reference::Case c;
  if (!reader.read_case(R\"({\"flags\": {\"accelerator\": \"cpu\", \"devices\": 2}})\", &c)) return 1;
  const accord::reference::Outcome o = accord::reference::resolve(c, accord::reference::default_profile());
  std::cout << (o.ok() ? o.plan().strategy.name : \"error\") << \"\\n\";
  return o.ok() ? 0 : 1;
}
")
  file(WRITE "${_check}/CMakeLists.txt" "cmake_minimum_required(VERSION 3.20)
project(accord_headers_check LANGUAGES CXX)
find_package(accord 0.1 REQUIRED COMPONENTS reference conformance)
add_executable(headers_check main.cc)
target_link_libraries(headers_check PRIVATE accord::conformance accord::reference)
")
  run(headers_configure "${CMAKE_COMMAND}" -S "${_check}" -B "${_check}/build" ${_pkg_args})
  run(headers_build "${CMAKE_COMMAND}" --build "${_check}/build" --parallel 2)
  find_program_in(_exe "${_check}/build" headers_check)
  run(headers_run ${_exe})
  expect(headers_run "ddp")

  # The installed command runs from the prefix.
  file(GLOB _accord "${_prefix}/bin/accord" "${_prefix}/bin/accord.exe")
  if(NOT _accord)
    fail("no accord command in ${_prefix}/bin")
  endif()
  run(installed_accord ${_accord} list profiles)
  expect(installed_accord "lightning-1.6")
elseif(ACCORD_MODE STREQUAL "fetchcontent")
  set(_unfindable)
  foreach(_pkg GTest rapidcheck benchmark Torch)
    list(APPEND _unfindable "-DCMAKE_DISABLE_FIND_PACKAGE_${_pkg}=ON")
  endforeach()
  run(configure "${CMAKE_COMMAND}" -S "${_example}" -B "${_tmp}/example" ${_config_args} -DCMAKE_BUILD_TYPE=Debug
      "-DACCORD_FETCH_SOURCE=${ACCORD_SOURCE_DIR}" ${_unfindable})
  file(STRINGS "${_tmp}/example/CMakeCache.txt" _tests_option REGEX "^ACCORD_BUILD_TESTS:")
  if(NOT _tests_option MATCHES "=OFF$")
    fail("ACCORD_BUILD_TESTS is not OFF inside another project: ${_tests_option}")
  endif()
  # No test, benchmark or fuzz target and no generators (RapidCheck is absent); the libraries and the command are there.
  if(ACCORD_GENERATOR MATCHES "Ninja|Makefiles")
    run(targets "${CMAKE_COMMAND}" --build "${_tmp}/example" --target help)
    foreach(_target reference conformance accord)
      if(NOT targets_OUT MATCHES "(^|[\n .:/])${_target}(:|\n| )")
        message("${targets_OUT}")
        fail("target ${_target} is missing")
      endif()
    endforeach()
    foreach(_target reference_tests conformance_tests property_tests_gen accord_bench conformance_bench fuzz_case_json_replay)
      if(targets_OUT MATCHES "(^|[\n .:/])${_target}(:|\n| )")
        fail("target ${_target} exists in a build without ACCORD_BUILD_TESTS")
      endif()
    endforeach()
  endif()
  run(build "${CMAKE_COMMAND}" --build "${_tmp}/example" --target consumer --parallel 2)
  find_program_in(_exe "${_tmp}/example" consumer)
  run(example ${_exe})
  foreach(_line IN LISTS _expected_lines)
    expect(example "${_line}")
  endforeach()
else()
  fail("ACCORD_MODE is package or fetchcontent, not '${ACCORD_MODE}'")
endif()

cleanup()
message(STATUS "test_package: ${ACCORD_MODE}: passed")
