#!/usr/bin/env bats
@test "placeholder" { true; }
