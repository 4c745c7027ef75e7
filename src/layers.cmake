# The layering check (CMakeLists.txt runs it in every build): no layer's objects use a symbol
# that a layer above it defines, and the installed library's layers use none that a layer
# outside it defines. Writes STAMP when both hold; otherwise names each use and fails.
#
#   cmake -DLAYERS="math|io|..." (bottom to top, the layers with objects)
#         -DINSTALLED="math|io|..." -DNM=nm -DOBJECTS_<layer>="a.o|b.o|..." -DSTAMP=FILE
#         -P layers.cmake
string(REPLACE "|" ";" layers "${LAYERS}")
string(REPLACE "|" ";" installed "${INSTALLED}")
file(REMOVE "${STAMP}")

# `nm -A` of a layer's objects, one line per symbol: "file.o: [address] TYPE name"
function(symbols layer flags out)
  string(REPLACE "|" ";" objects "${OBJECTS_${layer}}")
  execute_process(COMMAND ${NM} -A ${flags} ${objects} OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "layers: ${NM} failed on the objects of layer ${layer}")
  endif()
  string(REPLACE "\n" ";" lines "${text}")
  set(${out} "${lines}" PARENT_SCOPE)
endfunction()

# where each global symbol is defined: DEF_<symbol> = its layer's index
set(index 0)
foreach(layer ${layers})
  symbols(${layer} "--defined-only;-g" lines)
  foreach(line ${lines})
    if(line MATCHES " [A-Z] ([A-Za-z_][A-Za-z0-9_]*)$")
      set(DEF_${CMAKE_MATCH_1} ${index})
    endif()
  endforeach()
  math(EXPR index "${index} + 1")
endforeach()

set(problems "")
set(index 0)
foreach(layer ${layers})
  list(FIND installed ${layer} in_library)
  symbols(${layer} "-u" lines)
  foreach(line ${lines})
    if(NOT line MATCHES "^(.*): +U ([A-Za-z_][A-Za-z0-9_]*)$")
      continue()
    endif()
    set(object ${CMAKE_MATCH_1})
    set(sym ${CMAKE_MATCH_2})
    if(NOT DEFINED DEF_${sym})
      continue()   # the C library's, Lua's, ...
    endif()
    list(GET layers ${DEF_${sym}} owner)
    get_filename_component(name ${object} NAME)
    if(DEF_${sym} GREATER index)
      string(APPEND problems "  ${name} (layer ${layer}) uses ${sym}, defined in layer ${owner} above it\n")
    elseif(in_library GREATER -1)
      list(FIND installed ${owner} owner_in_library)
      if(owner_in_library EQUAL -1)
        string(APPEND problems "  ${name} (installed layer ${layer}) uses ${sym} of layer ${owner}, which is not installed\n")
      endif()
    endif()
  endforeach()
  math(EXPR index "${index} + 1")
endforeach()

if(problems)
  message(FATAL_ERROR "layers: a layer uses one above it (CMakeLists.txt, CC_LAYERS):\n${problems}")
endif()
file(WRITE "${STAMP}" "layers checked\n")
