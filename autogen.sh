#!/bin/sh
# Regenerate the build system from configure.ac and Makefile.am.
set -e
cd "$(dirname "$0")"
autoreconf --force --install --warnings=all
# automake does not install its TAP driver by itself
cp -f "$(automake --print-libdir)/tap-driver.sh" build-aux/
