# The repair planner, the executor, and the session that runs them in rounds for both front ends.
target_sources(mqttdoctor_core PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairplanner.cpp ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairplanner.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairexecutor.cpp ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairexecutor.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairevent.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairround.cpp ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairround.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairsession.cpp ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairsession.h
)
