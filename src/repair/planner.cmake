# The repair planner and executor (issue 5 items 2 and 3).
target_sources(mqttdoctor_core PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairplanner.cpp ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairplanner.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairexecutor.cpp ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairexecutor.h
)
