/* child: the one way memtop runs another program (lscpu, sysctl, getconf,
 * rsvg-convert): no shell, stdin from /dev/null, a process group of its
 * own, a time limit after which it is killed with its group and reaped, and
 * how it ended in words a user can act on. */
#ifndef MEMTOP_CHILD_H
#define MEMTOP_CHILD_H

#include <stddef.h>
#include "base/i18n.h"

/* How a child process ended. */
enum mt_run_status {
	MT_RUN_OK,        /* exited 0: its output is returned */
	MT_RUN_FAILED,    /* could not start, or exited non-zero, or was killed */
	MT_RUN_TIMED_OUT, /* still running at the deadline: killed and reaped */
};

/* How long a child may take (lscpu, sysctl): a hung one must not hang us. */
#define MT_RUN_TIMEOUT_MS 2000

/* mt_run_child's flags. */
enum {
	MT_RUN_STDERR = 1, /* the child's stderr is ours (its own reason); else /dev/null */
};

/* How a child ended, in full (mt_run_child). */
struct mt_run_end {
	enum mt_run_status status;
	int start_errno; /* it could not be started: the errno (ENOENT: not installed), else 0 */
	int exit_code;   /* its exit status when it exited, else -1 */
	int signal;      /* the signal that ended it (not our kill at the deadline), else 0 */
	int timeout_ms;  /* the limit it had */
};

/* Run argv[0] (searched in PATH, no shell; stdin /dev/null, stderr
 * /dev/null unless MT_RUN_STDERR, in a process group of its own) and
 * capture up to max bytes of its stdout (more is read and dropped; max may
 * be 0). A child still running after timeout_ms, or whose group still holds
 * its stdout then, is killed with its group (SIGKILL) and reaped. Returns a
 * malloc'd NUL-terminated string when it exited 0, else NULL; *end (may be
 * NULL) says how it ended. */
char *mt_run_child(const char *const argv[], size_t max, int timeout_ms, unsigned flags,
		   struct mt_run_end *end);

/* How end says the child ended, in English words (a result file keeps
 * them): "not installed", "could not start: REASON", "exited with status N",
 * "killed by signal N", "timed out after N ms"; "" when it exited 0.
 * Returns buf. MT_RUN_WHY_FORMS lists the forms, for mt_gettext_stored where
 * they are printed. */
const char *mt_run_why(const struct mt_run_end *end, char *buf, size_t len);
#define MT_RUN_WHY_TIMED_OUT N_("timed out after %d ms")
#define MT_RUN_WHY_NOT_INSTALLED N_("not installed")
#define MT_RUN_WHY_NO_START N_("could not start: %s")
#define MT_RUN_WHY_SIGNAL N_("killed by signal %d")
#define MT_RUN_WHY_STATUS N_("exited with status %d")
#define MT_RUN_WHY_FORMS                                                                      \
	MT_RUN_WHY_TIMED_OUT, MT_RUN_WHY_NO_START, MT_RUN_WHY_SIGNAL, MT_RUN_WHY_STATUS

/* mt_run_child without flags: output, or NULL; *status (may be NULL) says
 * why not. */
char *mt_run_capture_for(const char *const argv[], size_t max, int timeout_ms,
			 enum mt_run_status *status);

/* mt_run_capture_for with MT_RUN_TIMEOUT_MS: output, or NULL. */
char *mt_run_capture(const char *const argv[], size_t max);

#endif
