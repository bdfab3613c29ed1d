# Sanitizer and fuzzing builds. Configure a separate build folder with
#   -DMQTTDOCTOR_SANITIZE=address   AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer)
#   -DMQTTDOCTOR_SANITIZE=thread    ThreadSanitizer
# and, with clang, -DMQTTDOCTOR_FUZZ=ON for the libFuzzer targets in fuzz/. Every report stops the
# process (-fno-sanitize-recover, halt_on_error) and is also written to <build>/sanitizer-logs/, which
# `make test` checks after ctest: a report in a child process (the CLI run by an integration test)
# fails the run even when the test only looks at the exit code. nats.c and Qt are not instrumented;
# the suppression files in cmake/sanitizers/ cover reports inside those libraries only.
set(MQTTDOCTOR_SANITIZE "" CACHE STRING "Sanitizers for this build folder: empty, address or thread")
set_property(CACHE MQTTDOCTOR_SANITIZE PROPERTY STRINGS "" address thread)
option(MQTTDOCTOR_FUZZ "Build the libFuzzer targets (clang only)" OFF)

set(MQTTDOCTOR_SANITIZER_ENV "")
set(_supp ${PROJECT_SOURCE_DIR}/cmake/sanitizers)
set(_logs ${CMAKE_BINARY_DIR}/sanitizer-logs)

if(MQTTDOCTOR_SANITIZE STREQUAL "address")
    set(_flags -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
    if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
        # clang's "undefined" leaves out float division by zero (UB in C++; gcc checks it by default).
        # The implicit-conversion and unsigned-overflow groups are not UB and stay off.
        list(APPEND _flags -fsanitize=float-divide-by-zero)
    endif()
    # exitcode: distinct from the CLI's own exit codes (0-4) so a test comparing them notices.
    list(APPEND MQTTDOCTOR_SANITIZER_ENV
        "ASAN_OPTIONS=halt_on_error=1:abort_on_error=0:exitcode=86:detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1:log_path=${_logs}/report:log_exe_name=1"
        "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=86:suppressions=${_supp}/ubsan.supp:log_path=${_logs}/report:log_exe_name=1"
        "LSAN_OPTIONS=suppressions=${_supp}/lsan.supp:print_suppressions=0")
elseif(MQTTDOCTOR_SANITIZE STREQUAL "thread")
    set(_flags -fsanitize=thread -fno-omit-frame-pointer)
    # die_after_fork=0: QProcess (the tests start nats-server) forks a multi-threaded process; the
    # child only execs, which is safe. TSan with gcc: clang 14's runtime aborts in QProcess (Makefile).
    list(APPEND MQTTDOCTOR_SANITIZER_ENV
        "TSAN_OPTIONS=halt_on_error=1:exitcode=86:second_deadlock_stack=1:die_after_fork=0:suppressions=${_supp}/tsan.supp:log_path=${_logs}/tsan:log_exe_name=1")
elseif(NOT MQTTDOCTOR_SANITIZE STREQUAL "")
    message(FATAL_ERROR "MQTTDOCTOR_SANITIZE must be empty, address or thread (got '${MQTTDOCTOR_SANITIZE}')")
endif()

if(_flags)
    # -O0 (a Debug build: asserts on): the tests mostly wait for nats-server, while -O1 with the
    # sanitizers and the fuzzer's coverage compiles 3-4 times slower (25 s instead of 7 s per file).
    add_compile_options(${_flags})
    add_link_options(${_flags})
    file(MAKE_DIRECTORY ${_logs})
endif()

if(MQTTDOCTOR_FUZZ)
    if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
        message(FATAL_ERROR "MQTTDOCTOR_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
    endif()
    # The coverage instrumentation (-fsanitize=fuzzer-no-link) is set in fuzz/CMakeLists.txt, on the
    # code the fuzz targets reach.
endif()
