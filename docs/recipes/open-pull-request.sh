#!/usr/bin/env bash
# Opens a pull request that converts the Apache httpd 2.2 configuration in this git
# repository to 2.4. Run it from the repository's top folder:
#
#   open-pull-request.sh etc/httpd [more paths...]
#
# Needs git, httpd24-codemod on PATH (or HTTPD24_CODEMOD=command), and the GitHub CLI
# (`gh`, logged in). The branch is pushed to `origin`; the pull request's description
# lists every finding, so reviewers see what needs a person.
set -euo pipefail

[ $# -gt 0 ] || { echo "usage: $0 PATH..." >&2; exit 2; }
codemod=${HTTPD24_CODEMOD:-httpd24-codemod}
branch="httpd24-codemod/$(date +%Y%m%d-%H%M%S)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --check writes nothing; --diff-file saves the patch. Exit code 1 only means "changes due".
status=0
$codemod --check --diff-file "$work/patch" "$@" >"$work/report" 2>&1 || status=$?
if [ "$status" -gt 1 ]; then
  cat "$work/report" >&2
  exit "$status"
fi
if [ ! -s "$work/patch" ]; then
  echo "nothing to convert"
  exit 0
fi

summary=$(tail -n 1 "$work/report")
{
  echo "Converts Apache httpd 2.2 configuration to 2.4 with httpd24-codemod."
  echo
  echo "**$summary**"
  echo
  echo "Findings (\`manual\` ones need a person before this is merged):"
  echo
  echo '```'
  grep -v '^would change: ' "$work/report"
  echo '```'
} >"$work/body"

git switch --quiet --create "$branch"
git apply --index "$work/patch"
git commit --quiet --message "Convert Apache httpd configuration to 2.4" --message "$summary"
git push --quiet --set-upstream origin "$branch"
gh pr create --title "Convert Apache httpd configuration to 2.4" --body-file "$work/body" --head "$branch"
