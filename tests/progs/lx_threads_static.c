/* static build of lx_threads.c */
#include "lx_threads.c"
