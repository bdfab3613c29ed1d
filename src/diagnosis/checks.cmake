# Finding catalogue and stream-level checks (docs/findings.md), added to mqttdoctor_core.
target_sources(mqttdoctor_core PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/subjectoverlap.cpp ${CMAKE_CURRENT_SOURCE_DIR}/subjectoverlap.h
    ${CMAKE_CURRENT_SOURCE_DIR}/mqttlogformats.h
    ${CMAKE_CURRENT_SOURCE_DIR}/findingcodes.h
    ${CMAKE_CURRENT_SOURCE_DIR}/findingcatalogue.cpp ${CMAKE_CURRENT_SOURCE_DIR}/findingcatalogue.h
    ${CMAKE_CURRENT_SOURCE_DIR}/checkoptions.h
    ${CMAKE_CURRENT_SOURCE_DIR}/accountcheckinput.h
    ${CMAKE_CURRENT_SOURCE_DIR}/diagnosisinput.h
    ${CMAKE_CURRENT_SOURCE_DIR}/coveragegap.cpp ${CMAKE_CURRENT_SOURCE_DIR}/coveragegap.h
    ${CMAKE_CURRENT_SOURCE_DIR}/accountcoverage.cpp ${CMAKE_CURRENT_SOURCE_DIR}/accountcoverage.h
    ${CMAKE_CURRENT_SOURCE_DIR}/checks.cpp ${CMAKE_CURRENT_SOURCE_DIR}/checks.h
    ${CMAKE_CURRENT_SOURCE_DIR}/checkcontext.cpp ${CMAKE_CURRENT_SOURCE_DIR}/checkcontext.h
    ${CMAKE_CURRENT_SOURCE_DIR}/blockerchecks.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/streamchecks.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/retainedchecks.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/sessionchecks.cpp ${CMAKE_CURRENT_SOURCE_DIR}/sessionchecks.h
    ${CMAKE_CURRENT_SOURCE_DIR}/takeoverchecks.cpp ${CMAKE_CURRENT_SOURCE_DIR}/takeoverchecks.h
    ${CMAKE_CURRENT_SOURCE_DIR}/qos2checks.cpp ${CMAKE_CURRENT_SOURCE_DIR}/qos2checks.h
    ${CMAKE_CURRENT_SOURCE_DIR}/consumerowner.cpp ${CMAKE_CURRENT_SOURCE_DIR}/consumerowner.h
    ${CMAKE_CURRENT_SOURCE_DIR}/accountsnapshot.cpp ${CMAKE_CURRENT_SOURCE_DIR}/accountsnapshot.h
    ${CMAKE_CURRENT_SOURCE_DIR}/accountsnapshotloader.cpp ${CMAKE_CURRENT_SOURCE_DIR}/accountsnapshotloader.h
)
include(${CMAKE_CURRENT_SOURCE_DIR}/deliverychecks.cmake)
