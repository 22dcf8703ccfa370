# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# What `cmake --install <build> --prefix P` puts under P, for projects that
# embed amp (docs/Embedding.md):
#
#   include/amp, include/amp-c  headers, TableGen .td files, generated .inc
#   lib/libAmp.so.<v>           amp's C++ libraries as one shared library
#                               (amp::Amp, SONAME libAmp.so.<major>.<minor>)
#   lib/libAmp*.a               the same, as the static archives amp's own
#                               tools link (they link the shared libMLIR.so)
#   lib/libAmpCAPI.so.<v>       the C API, SONAME libAmpCAPI.so.<major>.<minor>
#   lib/amp-plugin.so           the plugin for the stock mlir-opt
#   lib/libamp_*_runtime.so     device runtimes (amp-run finds them in ../lib)
#   bin/amp-opt, bin/amp-run, bin/amp-compile
#   lib/cmake/amp               AmpConfig.cmake, AmpConfigVersion.cmake and
#                               AmpTargets.cmake (amp::AmpTransforms, ...)
#   python/                     the Python package (amp/) and its pyproject.toml
#
# add_mlir_library already installs each library into the export set
# MLIRTargets (AddMLIR.cmake, add_mlir_library_install); test passes opt out
# with DISABLE_INSTALL. This file adds what it does not: include directories
# of the exported targets, the tools, the plugin, the runtimes, the headers,
# the Python package and the package configuration.

include(CMakePackageConfigHelpers)

set(AMP_INSTALL_LIB_DIR lib${LLVM_LIBDIR_SUFFIX})
set(AMP_INSTALL_CMAKE_DIR ${AMP_INSTALL_LIB_DIR}/cmake/amp)

# Installed targets see the installed headers. (In the build tree, include
# directories come from include_directories() and never leak into the export.)
get_property(_amp_exported_libraries GLOBAL PROPERTY MLIR_EXPORTS)
foreach(_amp_library IN LISTS _amp_exported_libraries)
  set_property(TARGET ${_amp_library} APPEND PROPERTY
    INTERFACE_INCLUDE_DIRECTORIES $<INSTALL_INTERFACE:include>)
endforeach()

# Headers and TableGen sources, then what TableGen generated from them.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/amp ${PROJECT_SOURCE_DIR}/include/amp-c
  DESTINATION include
  COMPONENT amp-headers
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/amp
  DESTINATION include
  COMPONENT amp-headers
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

install(TARGETS amp-opt amp-run amp-compile
  RUNTIME DESTINATION bin
  COMPONENT amp-tools)
install(TARGETS AmpPlugin
  LIBRARY DESTINATION ${AMP_INSTALL_LIB_DIR}
  COMPONENT amp-plugin)
install(TARGETS amp_cuda_runtime
  LIBRARY DESTINATION ${AMP_INSTALL_LIB_DIR}
  COMPONENT amp-runtimes)
if(TARGET amp_vulkan_runtime)
  install(TARGETS amp_vulkan_runtime
    LIBRARY DESTINATION ${AMP_INSTALL_LIB_DIR}
    COMPONENT amp-runtimes)
endif()

# The Python package, importable with PYTHONPATH=P/python (it finds
# P/lib/libAmpCAPI.so from where it sits) and installable with
# `pip install P/python`. A copy pip makes elsewhere finds the library through
# amp/_library_path.txt, written here with the prefix's final path.
install(FILES ${PROJECT_SOURCE_DIR}/python/pyproject.toml
  DESTINATION python
  COMPONENT amp-python)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/amp
  DESTINATION python
  COMPONENT amp-python
  PATTERN "__pycache__" EXCLUDE
  PATTERN "*.pyc" EXCLUDE
  PATTERN "_library_path.txt" EXCLUDE)
install(CODE "file(WRITE \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/python/amp/_library_path.txt\"
  \"\${CMAKE_INSTALL_PREFIX}/${AMP_INSTALL_LIB_DIR}/libAmpCAPI${CMAKE_SHARED_LIBRARY_SUFFIX}\\n\")"
  COMPONENT amp-python)

# find_package(Amp): the configuration computes its prefix from its own
# location, so the installed tree can be moved.
set(AMP_INSTALL_INCLUDE_DIR include)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/AmpConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/amp/AmpConfig.cmake
  INSTALL_DESTINATION ${AMP_INSTALL_CMAKE_DIR}
  PATH_VARS AMP_INSTALL_INCLUDE_DIR AMP_INSTALL_LIB_DIR)
# amp's C++ API changes between minor versions (0.x).
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/amp/AmpConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/amp/AmpConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/amp/AmpConfigVersion.cmake
  DESTINATION ${AMP_INSTALL_CMAKE_DIR}
  COMPONENT amp-cmake)
install(EXPORT MLIRTargets
  NAMESPACE amp::
  FILE AmpTargets.cmake
  DESTINATION ${AMP_INSTALL_CMAKE_DIR}
  COMPONENT amp-cmake)
