# The CLI's command line through the real binary against real servers: usage errors (exit 64, the JSON
# error object), help texts, the timeout range (tst_cliusage), and which account a command works on (tst_cliaccounts).
mqttdoctor_add_test(tst_cliusage SOURCES tst_cliusage.cpp LIBRARIES mqttdoctor_testsupport LABELS integration TIMEOUT 300 COST 30)
mqttdoctor_add_test(tst_cliaccounts SOURCES tst_cliaccounts.cpp LIBRARIES mqttdoctor_testsupport LABELS integration TIMEOUT 300 COST 30)
