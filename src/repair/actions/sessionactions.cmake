# The session repair actions (actionfamilies.h).
target_sources(mqttdoctor_core PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/sessionactions.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/sessionactionsupport.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/sessionactionsupport.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/sessionconsumeractions.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/sessionmigrate.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/sessionadopt.cpp
)
