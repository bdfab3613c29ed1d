# Topologies beyond one cluster (label "topology"): superclusters joined by gateways, leaf nodes with and
# without their own JetStream domain, mixed-version clusters, a node lost during a repair. Each starts
# several real servers, so they get a COST that makes ctest start them first; the heaviest run on the
# newest server only (a data-driven function where the versions differ).
mqttdoctor_add_test(tst_supercluster SOURCES tst_supercluster.cpp livecheck.h LIBRARIES mqttdoctor_core mqttdoctor_testsupport
    LABELS integration topology TIMEOUT 600 COST 120)
mqttdoctor_add_test(tst_leafnodes SOURCES tst_leafnodes.cpp livecheck.h LIBRARIES mqttdoctor_core mqttdoctor_testsupport
    LABELS integration topology TIMEOUT 600 COST 100)
# Needs 2.9 and 2.10 in one cluster, whatever MQTTDOCTOR_TEST_VERSIONS selects.
mqttdoctor_add_test(tst_mixedcluster SOURCES tst_mixedcluster.cpp livecheck.h LIBRARIES mqttdoctor_core mqttdoctor_testsupport
    LABELS integration topology TIMEOUT 300 COST 60)
# Newest only: the executor's behaviour does not depend on the server version (tst_repairfaults covers 2.9).
mqttdoctor_add_test(tst_repairnodeloss SOURCES tst_repairnodeloss.cpp livecheck.h repairrun.h LIBRARIES mqttdoctor_core mqttdoctor_testsupport
    LABELS integration topology TIMEOUT 600 COST 110)
