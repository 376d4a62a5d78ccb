# cmake -DGLIDE_SOURCE_DIR=... -P process_words.cmake
# The documentation, sources, tests, build and case files speak of the product only. Fails,
# listing file:line, on talk of how the work was organised: sessions, tracker references
# ("issue 5", "issue #5", "Jolt #530", "(#12)"), git branches ("main branch", "feature
# branch"), and "the seed" as the origin of something. RNG seeds ("seed 12345", "fixed seeds")
# and technical branches (branch prediction, branchless code, BVH branches) pass.
cmake_minimum_required(VERSION 3.25) # list(GET) counts empty lines (CMP0007)
if(NOT GLIDE_SOURCE_DIR)
  message(FATAL_ERROR "process_words.cmake: pass -DGLIDE_SOURCE_DIR=<glide source folder>")
endif()

get_filename_component(GLIDE_SOURCE_DIR "${GLIDE_SOURCE_DIR}" REALPATH)
get_filename_component(self "${CMAKE_CURRENT_LIST_FILE}" REALPATH)

set(source_dirs gjk terrain world controller cases demo tests bench fuzz scripts cmake)
set(globs "${GLIDE_SOURCE_DIR}/README.md" "${GLIDE_SOURCE_DIR}/CMakeLists.txt" "${GLIDE_SOURCE_DIR}/docs/*.md"
  "${GLIDE_SOURCE_DIR}/demo/levels/*.md")
foreach(dir IN LISTS source_dirs)
  foreach(pattern *.cpp *.hpp *.in *.cmake CMakeLists.txt *.sh *.py *.json)
    list(APPEND globs "${GLIDE_SOURCE_DIR}/${dir}/${pattern}")
  endforeach()
endforeach()
file(GLOB_RECURSE files LIST_DIRECTORIES false ${globs})
list(REMOVE_DUPLICATES files)
list(REMOVE_ITEM files "${self}") # its own patterns and examples
list(SORT files)

# Each rule is checked on the line in lower case; CMake's regex has no \b, so a word boundary
# is spelled (^|[^a-z]) and ([^a-z]|$).
set(rule_names session issue tracker branch seed)
set(rule_session "(^|[^a-z])sessions?([^a-z]|$)")
set(rule_issue "(^|[^a-z])issues? #?[0-9]+")
set(rule_tracker "([a-z]+ #[0-9][0-9]+|\\(#[0-9]+\\))")
set(rule_branch "((^|[^a-z])(on|main|master|feature|git) branch|(^|[^a-z])branch (main|master)([^a-z]|$))")
set(rule_seed "(^|[^a-z])the seed([^a-z]|$)")
set(what_session "a session")
set(what_issue "an issue number")
set(what_tracker "a tracker reference")
set(what_branch "a git branch")
set(what_seed "\"the seed\" as an origin")
# A cheap test on the whole file first; only files that may hold a hit are read line by line.
set(any "(session|issue|#[0-9]|branch|the seed)")

set(problems "")
set(scanned 0)
foreach(file IN LISTS files)
  math(EXPR scanned "${scanned} + 1")
  file(READ "${file}" content)
  string(TOLOWER "${content}" lower)
  if(NOT lower MATCHES "${any}")
    continue()
  endif()
  # One list element per line: the characters CMake's lists treat specially (; \ [ ]) are
  # stood in for first, so that lines keep their numbers.
  set(text "${content}")
  foreach(special IN ITEMS lower text)
    string(REPLACE ";" "<glide:semicolon>" ${special} "${${special}}")
    string(REPLACE "\\" "<glide:backslash>" ${special} "${${special}}")
    string(REPLACE "[" "<glide:open>" ${special} "${${special}}")
    string(REPLACE "]" "<glide:close>" ${special} "${${special}}")
  endforeach()
  string(REPLACE "\n" ";" lines "${lower}")
  string(REPLACE "\n" ";" text_lines "${text}")
  file(RELATIVE_PATH where "${GLIDE_SOURCE_DIR}" "${file}")
  set(index 0)
  foreach(line IN LISTS lines)
    foreach(rule IN LISTS rule_names)
      if(line MATCHES "${rule_${rule}}")
        list(GET text_lines ${index} shown)
        string(REPLACE "<glide:semicolon>" ";" shown "${shown}")
        string(REPLACE "<glide:backslash>" "\\" shown "${shown}")
        string(REPLACE "<glide:open>" "[" shown "${shown}")
        string(REPLACE "<glide:close>" "]" shown "${shown}")
        string(STRIP "${shown}" shown)
        math(EXPR number "${index} + 1")
        string(APPEND problems "  ${where}:${number}: ${what_${rule}}: ${shown}\n")
      endif()
    endforeach()
    math(EXPR index "${index} + 1")
  endforeach()
endforeach()

if(problems)
  message(FATAL_ERROR "process words in the product (docs and sources speak of the product only):\n${problems}")
endif()
message(STATUS "process words: none in ${scanned} files")
