# The rooms of docs/architecture.md as build components: what each room may include is what its
# compile sees, so an include the map forbids does not compile ("No such file or directory").
#
# Every file includes by its repository path ("model/layout/layout.hpp"). A room's sources are not
# given the repository root: each room gets an include view, a folder under the build tree holding
# symbolic links to exactly the room folders it may include, at their repository-relative paths:
#   build/rooms/model_trace/model/trace   -> model/trace      (itself)
#   build/rooms/model_trace/model/atoms   -> model/atoms      (what it includes,
#   build/rooms/model_trace/model/algebra -> model/algebra     and, transitively,
#   ...                                                         what those include)
# tests/, bench/, fuzz/, properties/ and api/ sit beside the floors and keep the repository root
# (layoutproof_model's interface), so they see everything.
#
#   layoutproof_room(ROOM [FILES_ONLY] [DEPENDS ROOM...])  declares a room and the rooms it includes
#   layoutproof_file_edge(FILE ROOM...)                    one file of a room that also includes ROOMs
#   layoutproof_room_view(ROOM)                            the INTERFACE target lp_view_<room>
#   layoutproof_room_target(ROOM SOURCES...)               the room's OBJECT library, lp_<room>
# FILES_ONLY: the room is a folder's own files, not its subfolders (cli/: its subfolders are rooms).
# The table itself is layoutproof_declare_rooms() below: the one place the rules live.
set(LAYOUTPROOF_ROOMS_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." CACHE INTERNAL "")
get_filename_component(LAYOUTPROOF_ROOMS_ROOT "${LAYOUTPROOF_ROOMS_ROOT}" ABSOLUTE)

function(_lp_room_id room out)
  string(REPLACE "/" "_" id "${room}")
  set(${out} "${id}" PARENT_SCOPE)
endfunction()

function(layoutproof_room room)
  cmake_parse_arguments(R "FILES_ONLY" "" "DEPENDS" ${ARGN})
  set_property(GLOBAL APPEND PROPERTY LAYOUTPROOF_ROOMS "${room}")
  set_property(GLOBAL PROPERTY "LAYOUTPROOF_ROOM_DEPENDS_${room}" "${R_DEPENDS}")
  set_property(GLOBAL PROPERTY "LAYOUTPROOF_ROOM_FILES_ONLY_${room}" "${R_FILES_ONLY}")
endfunction()

function(layoutproof_file_edge file)
  set_property(GLOBAL APPEND PROPERTY LAYOUTPROOF_BACK_EDGE_FILES "${file}")
  set_property(GLOBAL PROPERTY "LAYOUTPROOF_BACK_EDGE_${file}" "${ARGN}")
endfunction()

# The rooms `room` sees: itself, what it depends on, transitively.
function(_lp_room_closure out)
  set(seen "")
  set(todo ${ARGN})
  while(todo)
    list(POP_FRONT todo r)
    if(r IN_LIST seen)
      continue()
    endif()
    get_property(known GLOBAL PROPERTY LAYOUTPROOF_ROOMS)
    if(NOT r IN_LIST known)
      message(FATAL_ERROR "rooms.cmake: '${r}' is not a declared room")
    endif()
    list(APPEND seen "${r}")
    get_property(deps GLOBAL PROPERTY "LAYOUTPROOF_ROOM_DEPENDS_${r}")
    list(APPEND todo ${deps})
  endwhile()
  set(${out} "${seen}" PARENT_SCOPE)
endfunction()

# Links `room`'s folder (or, FILES_ONLY, each of its own files) into the view folder `dir`.
function(_lp_link_room dir room)
  get_property(files_only GLOBAL PROPERTY "LAYOUTPROOF_ROOM_FILES_ONLY_${room}")
  if(files_only)
    file(GLOB headers CONFIGURE_DEPENDS RELATIVE "${LAYOUTPROOF_ROOMS_ROOT}" "${LAYOUTPROOF_ROOMS_ROOT}/${room}/*.hpp")
  else()
    set(headers "${room}")
  endif()
  foreach(h IN LISTS headers)
    get_filename_component(parent "${dir}/${h}" DIRECTORY)
    file(MAKE_DIRECTORY "${parent}")
    if(NOT EXISTS "${dir}/${h}")
      file(CREATE_LINK "${LAYOUTPROOF_ROOMS_ROOT}/${h}" "${dir}/${h}" SYMBOLIC)
    endif()
  endforeach()
endfunction()

# An INTERFACE target whose include path is a view of exactly `rooms` (and their closure).
function(_lp_view target dir)
  if(TARGET ${target})
    return()
  endif()
  _lp_room_closure(seen ${ARGN})
  file(REMOVE_RECURSE "${dir}")  # a view holds what the table says now, nothing left from before
  file(MAKE_DIRECTORY "${dir}")
  foreach(r IN LISTS seen)
    _lp_link_room("${dir}" "${r}")
  endforeach()
  add_library(${target} INTERFACE)
  target_include_directories(${target} INTERFACE "${dir}")
endfunction()

function(layoutproof_room_view room)
  _lp_room_id("${room}" id)
  _lp_view(lp_view_${id} "${CMAKE_BINARY_DIR}/rooms/${id}" "${room}")
endfunction()

# The room's OBJECT library of SOURCES (paths from the repository root), compiled against its view;
# a file with a back edge is compiled alone against its room's view and the edge's rooms.
function(layoutproof_room_target room)
  _lp_room_id("${room}" id)
  layoutproof_room_view("${room}")
  get_property(edges GLOBAL PROPERTY LAYOUTPROOF_BACK_EDGE_FILES)
  set(plain "")
  foreach(src IN LISTS ARGN)
    if(src IN_LIST edges)
      get_property(to GLOBAL PROPERTY "LAYOUTPROOF_BACK_EDGE_${src}")
      string(MAKE_C_IDENTIFIER "${src}" eid)
      _lp_view(lp_view_edge_${eid} "${CMAKE_BINARY_DIR}/rooms/edge_${eid}" "${room}" ${to})
      add_library(lp_${id}_${eid} OBJECT "${LAYOUTPROOF_ROOMS_ROOT}/${src}")
      target_link_libraries(lp_${id}_${eid} PRIVATE lp_view_edge_${eid})
      set_property(GLOBAL APPEND PROPERTY "LAYOUTPROOF_ROOM_TARGETS_${room}" lp_${id}_${eid})
    else()
      list(APPEND plain "${LAYOUTPROOF_ROOMS_ROOT}/${src}")
    endif()
  endforeach()
  if(plain)
    add_library(lp_${id} OBJECT ${plain})
    target_link_libraries(lp_${id} PRIVATE lp_view_${id})
    set_property(GLOBAL APPEND PROPERTY "LAYOUTPROOF_ROOM_TARGETS_${room}" lp_${id})
  endif()
endfunction()

# The OBJECT libraries of `rooms`, into `out` (to add their objects to a library, set options).
function(layoutproof_room_targets out)
  set(all "")
  foreach(r IN LISTS ARGN)
    get_property(t GLOBAL PROPERTY "LAYOUTPROOF_ROOM_TARGETS_${r}")
    list(APPEND all ${t})
  endforeach()
  set(${out} "${all}" PARENT_SCOPE)
endfunction()

# docs/architecture.md's tables: each room and the rooms it includes directly.
macro(layoutproof_declare_rooms)
  # model/: the ground
  layoutproof_room(model/support)
  layoutproof_room(model/layout DEPENDS model/support)
  layoutproof_room(model/algebra DEPENDS model/layout)
  layoutproof_room(model/bank DEPENDS model/support)
  layoutproof_room(model/raster DEPENDS model/layout)
  layoutproof_room(model/hopper DEPENDS model/support)
  layoutproof_room(model/atoms DEPENDS model/algebra)
  layoutproof_room(model/trace DEPENDS model/atoms model/bank)
  layoutproof_room(model/source DEPENDS model/trace)
  layoutproof_room(model/compiled DEPENDS model/trace)
  set(LAYOUTPROOF_MODEL_ROOMS model/support model/layout model/algebra model/bank model/raster model/hopper model/atoms
      model/trace model/source model/compiled)
  # proofs/: deciding claims; every room sees all of model/
  layoutproof_room(proofs/claims DEPENDS ${LAYOUTPROOF_MODEL_ROOMS})
  layoutproof_room(proofs/smt DEPENDS proofs/claims proofs/raster)
  layoutproof_room(proofs/synth DEPENDS proofs/claims)
  layoutproof_room(proofs/catalog DEPENDS proofs/check)
  layoutproof_room(proofs/raster DEPENDS proofs/claims)
  # A check of any kind, decided: above the rooms that decide each kind (synthesis, schedulers).
  layoutproof_room(proofs/check DEPENDS proofs/claims proofs/synth proofs/raster)
  set(LAYOUTPROOF_PROOFS_ROOMS proofs/claims proofs/smt proofs/synth proofs/catalog proofs/raster proofs/check)
  # cli/: the command sees model/ and proofs/; cli/spec/ and cli/output/ never include cli/commands/.
  # cli/'s own files (tokens, the --help interface cli/help.hpp, run flags) are a room that spec/ and
  # output/ include. The help table behind cli/help.hpp (cli/help/help_table.cpp) names each
  # command's flag table, so cli/help/ sits above cli/commands/, and no room includes it.
  layoutproof_room(cli FILES_ONLY DEPENDS ${LAYOUTPROOF_MODEL_ROOMS} ${LAYOUTPROOF_PROOFS_ROOMS} cli/spec cli/output cli/flags)
  layoutproof_room(cli/flags DEPENDS cli)
  layoutproof_room(cli/spec DEPENDS cli)
  layoutproof_room(cli/output DEPENDS cli)
  layoutproof_room(cli/commands DEPENDS cli)
  layoutproof_room(cli/help DEPENDS cli cli/commands)
endmacro()
