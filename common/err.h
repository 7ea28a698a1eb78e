/* err.h — the one error style of pmucheck.
 *
 * Functions return 0 on success or a negative status and fill a struct err with a message that
 * names the file, line, option or event at fault. Only main and the CLI layer print the message
 * and choose the exit status: E_USAGE (bad usage or input) exits 2, E_RUNTIME exits 1.
 */
#ifndef PMUCHECK_ERR_H
#define PMUCHECK_ERR_H

#define ERR_MSG_MAX 1024

enum err_status {
	E_OK = 0,
	E_RUNTIME = -1, /* the machine or the environment failed us: exit 1 */
	E_USAGE = -2,   /* the user's input is wrong: exit 2, nothing written */
};

struct err {
	char msg[ERR_MSG_MAX];
};

/* Sets the message (printf style) and returns status, so callers can `return err_set(e, E_USAGE, ...)`.
   e may be NULL. */
int err_set(struct err *e, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Prefixes the existing message with more context ("while reading x: <old message>"). */
int err_wrap(struct err *e, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Exit status for a return value: 0, 1 or 2. */
int err_exit_status(int status);

#endif
