# Script mode: cmake -DPROGRAM=... -DARGUMENTS=a;b -DOUTPUT=file -P CaptureOutput.cmake
# Runs PROGRAM and writes its standard output to OUTPUT; fails when the program does.
execute_process(COMMAND "${PROGRAM}" ${ARGUMENTS} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} ${ARGUMENTS} failed (${rc}): ${err}")
endif()
file(WRITE "${OUTPUT}" "${out}")
