/* static build of lx_signals.c */
#include "lx_signals.c"
