/* bpred.h — branch prediction: a direction predictor (bimodal, gshare or
 * the 21264 tournament predictor), a BTB, a return stack and an indirect
 * target predictor.  Prediction and update are separate so the pipeline
 * can follow a wrong path between them. */
#ifndef VPMU_UARCH_BPRED_H
#define VPMU_UARCH_BPRED_H

#include <stdint.h>

#include "uarch.h"

enum uarch_bp_kind {
	UARCH_BP_STATIC,     /* backward taken, forward not taken */
	UARCH_BP_BIMODAL,    /* 2-bit counters indexed by pc */
	UARCH_BP_GSHARE,     /* 2-bit counters indexed by pc ^ global history */
	UARCH_BP_TOURNAMENT, /* 21264: local (history table + 3-bit counters),
			      * global (history → 2-bit counters), choice */
};

struct uarch_bp_cfg {
	uint8_t kind;	    /* enum uarch_bp_kind */
	uint32_t pht;	    /* counters of the bimodal/gshare table, or the global table */
	uint8_t ghist;	    /* global history bits */
	uint32_t lhist;	    /* local history table entries (tournament) */
	uint8_t lbits;	    /* local history bits (tournament) */
	uint32_t lpht;	    /* local counters (tournament; 3-bit) */
	uint32_t choice;    /* choice counters (tournament) */
	uint32_t btb;	    /* BTB entries; 0 = targets always known */
	uint32_t btb_assoc; /* 0 = fully associative */
	uint32_t ras;	    /* return stack entries */
	uint32_t ind;	    /* indirect target cache entries; 0 = use the BTB */
	uint16_t penalty;   /* cycles lost on a mispredict (front-end refill) */
};

struct uarch_bp;

/* A prediction, kept by the caller until the branch resolves. */
struct uarch_bp_pred {
	uint64_t target;   /* predicted next pc */
	uint8_t taken;	   /* predicted direction */
	uint8_t btb_hit;   /* the BTB knew the target */
	uint8_t component; /* tournament: 0 local, 1 global (what the choice picked) */
	uint64_t enc;	   /* the encoded target predict was given (0: unknown) */
	uint32_t state[4]; /* indices/histories needed to update exactly what predicted */
};

struct uarch_bp *uarch_bp_new(const struct uarch_bp_cfg *cfg);
void uarch_bp_free(struct uarch_bp *bp);
/* Predict the branch at pc (fall-through address next; target: a direct
 * branch's encoded target, which decode knows, or 0).  thread selects the
 * per-thread history and return stack (SMT shares the tables). */
void uarch_bp_predict(struct uarch_bp *bp, int thread, uint64_t pc, uint64_t next, uint64_t target,
		      enum uarch_br kind, struct uarch_bp_pred *p);
/* The direction uarch_bp_predict gives the conditional branch at pc
 * (target: its encoded target, or 0), with nothing else looked up. */
int uarch_bp_taken(const struct uarch_bp *bp, int thread, uint64_t pc, uint64_t target);
/* Resolve: train with the outcome; returns 1 if the prediction was wrong
 * (direction, or target of a taken branch). */
int uarch_bp_update(struct uarch_bp *bp, int thread, uint64_t pc, enum uarch_br kind, int taken,
		    uint64_t target, const struct uarch_bp_pred *p);
const struct uarch_bp_cfg *uarch_bp_cfg(const struct uarch_bp *bp);

#endif
