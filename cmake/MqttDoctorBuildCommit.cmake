# mqttdoctor_add_build_commit(target): gives `target` a generated header, buildcommit.h, defining
# MQTTDOCTOR_GIT_COMMIT. It is written on every build (not only at configure time), so a commit made
# after configuring is named; it is rewritten only when its text changes, so an unchanged commit
# recompiles nothing. Outside a git checkout the commit is "unknown"; -DMQTTDOCTOR_GIT_COMMIT=...
# names it for builds from a source archive.
set(MQTTDOCTOR_GIT_COMMIT "" CACHE STRING "The commit --version names when the sources are not a git checkout")
set(_mqttdoctor_build_commit_script ${CMAKE_CURRENT_LIST_DIR}/WriteBuildCommit.cmake)

function(mqttdoctor_add_build_commit target)
    set(dir ${CMAKE_CURRENT_BINARY_DIR}/buildcommit)
    find_package(Git QUIET)
    add_custom_target(${target}_commit
        COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${dir}/buildcommit.h
                "-DGIT_EXECUTABLE=${GIT_EXECUTABLE}" "-DCOMMIT_OVERRIDE=${MQTTDOCTOR_GIT_COMMIT}"
                -P ${_mqttdoctor_build_commit_script}
        BYPRODUCTS ${dir}/buildcommit.h
        COMMENT "Reading the git commit for --version"
        VERBATIM)
    add_dependencies(${target} ${target}_commit)
    target_include_directories(${target} PRIVATE ${dir})
endfunction()
