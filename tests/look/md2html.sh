#!/bin/sh
# Render a Markdown report as GitHub would show the comment: cmark-gfm
# with GitHub's extensions, in a page with GitHub-like CSS.
#   sh tests/look/md2html.sh REPORT.md > REPORT.html
set -eu
here=$(dirname "$0")
printf '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><style>\n'
cat "$here/github.css"
printf '</style></head><body><div class="markdown-body">\n'
cmark-gfm --unsafe -e table -e strikethrough -e autolink -e tagfilter "$1"
printf '</div></body></html>\n'
