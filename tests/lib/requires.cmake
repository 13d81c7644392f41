# lp_add_test(NAME N NEEDS NEED[,NEED...] COMMAND CMD [ARG...]): add_test, started through
# tests/lib/requires.sh so that where a tool the test needs is missing (a command on PATH or py:MODULE)
# the test is reported skipped, with a "SKIPPED: ..." line naming the tool and its Debian package,
# instead of failing. tests/package/bare_tools_test.py checks every such test, need by need, and that
# each test declares every tool its script runs.
set(LP_REQUIRES_SH ${CMAKE_CURRENT_LIST_DIR}/requires.sh)
function(lp_add_test)
  cmake_parse_arguments(T "" "NAME;NEEDS" "COMMAND" ${ARGN})
  if(NOT T_NAME OR NOT T_NEEDS OR NOT T_COMMAND OR T_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "lp_add_test: NAME, NEEDS and COMMAND are required (got ${ARGN})")
  endif()
  add_test(NAME ${T_NAME} COMMAND bash ${LP_REQUIRES_SH} ${T_NEEDS} -- ${T_COMMAND})
  set_tests_properties(${T_NAME} PROPERTIES SKIP_RETURN_CODE 77)
endfunction()
