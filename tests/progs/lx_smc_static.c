/* static build of lx_smc.c */
#include "lx_smc.c"
