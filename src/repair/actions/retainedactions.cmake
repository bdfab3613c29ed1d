# The retained repair actions (actionfamilies.h).
target_sources(mqttdoctor_core PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/retainedactions.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/retainedactionbase.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/retainedsupport.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/retainedrevert.cpp
)
