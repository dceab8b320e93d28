/* FAST TCP (docs/algorithms.md "fast"; crates/sim/src/cc/fast/controller.rs) for the Linux kernel: the
 * controller of fast_core.h with nothing plugged in. */
#include "dcc_common.h"
#include "dcc_params.h"

struct dcc_params_fast dcc_params SEC(".data.dccfast") = DCC_PARAMS_FAST_DEFAULTS;

struct fast_ext {
};

#define DCC_PROG(n) dcc_fast_##n
#define DCC_NAME "dcc_fast"
#define DCC_OPS dcc_fast
#include "fast_core.h"
