# Poco's JSON and XML libraries, for the json and the XML formats' adapters.
find_package(Poco REQUIRED COMPONENTS Foundation JSON XML)
wb_library(poco "${Poco_VERSION}" "shared (Debian ships no archive)" "${WB_DEBIAN_FLAGS}")
