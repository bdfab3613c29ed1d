# Checks of delivery progress, replaced durables, interest pinning and JetStream API errors (docs/findings.md).
target_sources(mqttdoctor_core PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/accountsample.cpp ${CMAKE_CURRENT_SOURCE_DIR}/accountsample.h
    ${CMAKE_CURRENT_SOURCE_DIR}/apierrorchecks.cpp ${CMAKE_CURRENT_SOURCE_DIR}/apierrorchecks.h
    ${CMAKE_CURRENT_SOURCE_DIR}/deliverychecks.cpp ${CMAKE_CURRENT_SOURCE_DIR}/deliverychecks.h
    ${CMAKE_CURRENT_SOURCE_DIR}/durablereplacement.cpp ${CMAKE_CURRENT_SOURCE_DIR}/durablereplacement.h
    ${CMAKE_CURRENT_SOURCE_DIR}/interestholder.cpp ${CMAKE_CURRENT_SOURCE_DIR}/interestholder.h
    ${CMAKE_CURRENT_SOURCE_DIR}/jsrequesttypes.cpp ${CMAKE_CURRENT_SOURCE_DIR}/jsrequesttypes.h
)
