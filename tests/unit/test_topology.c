#include "tap.h"
int main(void) { ok(1, "placeholder"); return tap_done(); }
