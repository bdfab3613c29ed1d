# Server-level findings (version advisories, the JetStream meta group) and upgrade readiness, added to mqttdoctor_core.
target_sources(mqttdoctor_core PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/versionadvisories.cpp ${CMAKE_CURRENT_SOURCE_DIR}/versionadvisories.h
    ${CMAKE_CURRENT_SOURCE_DIR}/metagroupcheck.cpp ${CMAKE_CURRENT_SOURCE_DIR}/metagroupcheck.h
    ${CMAKE_CURRENT_SOURCE_DIR}/upgradereadiness.cpp ${CMAKE_CURRENT_SOURCE_DIR}/upgradereadiness.h
)
