# lld instead of the default GNU ld (`make test` within its time budget): a test executable
# links in 0.3 s instead of 1.6-2.5 s (gcc Debug, clang ASan), and every tree links 70-90 of them.
# lld comes with Debian's `lld` package (in the Makefile's DEB_PACKAGES); without it, or with
# -DMQTTDOCTOR_LLD=OFF, the compiler's default linker is used.
option(MQTTDOCTOR_LLD "Link with lld when the compiler can use it" ON)
if(MQTTDOCTOR_LLD)
    include(CheckLinkerFlag)
    check_linker_flag(CXX -fuse-ld=lld MQTTDOCTOR_HAVE_LLD)
    if(MQTTDOCTOR_HAVE_LLD)
        add_link_options(-fuse-ld=lld)
    endif()
endif()
