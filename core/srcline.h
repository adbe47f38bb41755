/* srcline.h — between core/srcline.c and core/srcline_scope.c (the public
 * interface is sym.h). */
#ifndef VPMU_CORE_SRCLINE_H
#define VPMU_CORE_SRCLINE_H

#include <elfutils/libdw.h>
#include <stdint.h>

/* The DIEs of the functions holding file address pc in compilation unit
 * cu, innermost first (inlined instances, then the subprogram), at most
 * max; -1 when no top-level subprogram of cu holds pc.  *idx caches each
 * unit's index of functions by address. */
struct sym_scopes;
int sym_scopes_at(struct sym_scopes **idx, Dwarf_Die *cu, uint64_t pc, Dwarf_Die *out, int max);
void sym_scopes_free(struct sym_scopes *idx);

#endif
