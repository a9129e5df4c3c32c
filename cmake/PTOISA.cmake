# Building pto-translate's C++ for the CPU from CMake: the same choices as
# scripts/pto-isa-cxx.sh.
#
#   include(<pto-mlir checkout>/cmake/PTOISA.cmake)
#   add_executable(run_main ${OUT}/run_main.cpp)
#   target_include_directories(run_main PRIVATE ${OUT})
#   pto_isa_cpu_target(run_main)                  # BACKEND auto
#   pto_isa_cpu_target(run_main BACKEND pto-isa)  # or sim
#
# pto-isa: the instructions of pto-isa's own CPU backend (C++20, __CPU_SIM,
# ${PTO_ISA_ROOT}/include ahead of the project's sim/include); it needs
# clang++ 22 as the project's C++ compiler (CMAKE_CXX_COMPILER=clang++-22).
# sim: the project's instruction model in sim/ (C++17, any compiler).
# auto: pto-isa when ${PTO_ISA_ROOT}/include/pto/pto-inst.hpp exists and the
# compiler is Clang, else sim. PTO_ISA_ROOT is a CMake variable, else the
# environment variable, else ../shared/third_party/pto-isa beside the
# checkout. The backend chosen is the target's PTO_ISA_BACKEND property.

include_guard(GLOBAL)

get_filename_component(PTO_ISA_MLIR_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT DEFINED PTO_ISA_ROOT)
  if(DEFINED ENV{PTO_ISA_ROOT} AND NOT "$ENV{PTO_ISA_ROOT}" STREQUAL "")
    set(PTO_ISA_ROOT "$ENV{PTO_ISA_ROOT}")
  else()
    get_filename_component(PTO_ISA_ROOT "${PTO_ISA_MLIR_ROOT}/../shared/third_party/pto-isa" ABSOLUTE)
  endif()
endif()

find_package(Threads REQUIRED)

function(pto_isa_cpu_target target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "BACKEND" "")
  if(NOT ARG_BACKEND)
    set(ARG_BACKEND auto)
  endif()
  set(found FALSE)
  if(EXISTS "${PTO_ISA_ROOT}/include/pto/pto-inst.hpp")
    set(found TRUE)
  endif()
  set(clang FALSE)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    set(clang TRUE)
  endif()

  if(ARG_BACKEND STREQUAL "auto")
    if(found AND clang)
      set(ARG_BACKEND pto-isa)
    else()
      set(ARG_BACKEND sim)
    endif()
  elseif(ARG_BACKEND STREQUAL "pto-isa")
    if(NOT found)
      message(FATAL_ERROR "pto_isa_cpu_target(${target}): no pto-isa in PTO_ISA_ROOT=${PTO_ISA_ROOT} (no include/pto/pto-inst.hpp)")
    endif()
    if(NOT clang)
      message(FATAL_ERROR "pto_isa_cpu_target(${target}): pto-isa's CPU backend needs clang++ 22 "
                          "(configure with -DCMAKE_CXX_COMPILER=clang++-22), not ${CMAKE_CXX_COMPILER_ID}")
    endif()
  elseif(NOT ARG_BACKEND STREQUAL "sim")
    message(FATAL_ERROR "pto_isa_cpu_target(${target}): unknown BACKEND '${ARG_BACKEND}' (pto-isa, sim or auto)")
  endif()

  if(ARG_BACKEND STREQUAL "pto-isa")
    target_compile_features(${target} PRIVATE cxx_std_20)
    target_compile_definitions(${target} PRIVATE __CPU_SIM)
    # pto-isa's pto-inst.hpp uses <cstdint>'s types without including it; its
    # own headers warn of unhandled enumerators and unvectorised loops.
    target_compile_options(${target} PRIVATE "SHELL:-include cstdint" -Wno-switch -Wno-pass-failed)
    target_include_directories(${target} BEFORE PRIVATE
      "${PTO_ISA_ROOT}/include" "${PTO_ISA_MLIR_ROOT}/sim/include" "${PTO_ISA_MLIR_ROOT}/sim/include/runtime")
  else()
    target_compile_features(${target} PRIVATE cxx_std_17)
    target_include_directories(${target} BEFORE PRIVATE
      "${PTO_ISA_MLIR_ROOT}/sim/include" "${PTO_ISA_MLIR_ROOT}/sim/include/runtime")
  endif()
  target_link_libraries(${target} PRIVATE Threads::Threads)
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF PTO_ISA_BACKEND ${ARG_BACKEND})
endfunction()
