#!/usr/bin/env bash
# A Sixty-six engine in bash: plays a random legal action.
# It speaks the line protocol of docs/protocol.md on standard input and output:
#   sixtysix arena engine:"bash examples/random_engine.sh" heuristic
# Every line it does not need (newhand, view, event, drew, result ...) is ignored.
while read -r command rest; do
  case "$command" in
    sixtysix)
      echo "id name random-bash"
      echo "id version 1"
      echo "ready" ;;
    isready)
      echo "readyok" ;;
    go)
      legal=(${rest#*legal })            # the words after "legal"
      echo "action ${legal[RANDOM % ${#legal[@]}]}" ;;
    quit)
      exit 0 ;;
  esac
done
