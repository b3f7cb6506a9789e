#ifndef CLIBWEBSOCKETS_SHIM_H
#define CLIBWEBSOCKETS_SHIM_H
/* What Swift cannot import from libwebsockets.h on its own (docs/libwebsockets.md#shim). */
#include <libwebsockets.h>
#include <ev.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

/* The kernel thread id (gettid is not exported by every glibc Swift imports). */
static inline int clws_gettid(void) { return (int)syscall(SYS_gettid); }

/* LWS_PRE expands through the function-like macro _LWS_PAD(). */
static const size_t CLWS_PRE = LWS_PRE;

/* Options defined in terms of other macros are not imported. */
static const unsigned long long CLWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT = LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
static const unsigned long long CLWS_SERVER_OPTION_DISABLE_IPV6 = LWS_SERVER_OPTION_DISABLE_IPV6;
static const unsigned long long CLWS_SERVER_OPTION_VALIDATE_UTF8 = LWS_SERVER_OPTION_VALIDATE_UTF8;
static const unsigned long long CLWS_SERVER_OPTION_EXPLICIT_VHOSTS = LWS_SERVER_OPTION_EXPLICIT_VHOSTS;
static const unsigned long long CLWS_SERVER_OPTION_DISABLE_OS_CA_CERTS = LWS_SERVER_OPTION_DISABLE_OS_CA_CERTS;

/* libev, for the service thread's foreign loop (LWS_SERVER_OPTION_LIBEV): epoll on Linux. */
static const unsigned long long CLWS_SERVER_OPTION_LIBEV = LWS_SERVER_OPTION_LIBEV;
static inline void *clws_ev_loop_new(void) { return ev_loop_new(EVFLAG_AUTO); }
static inline void clws_ev_run(void *loop) { ev_run((struct ev_loop *)loop, 0); }
static inline void clws_ev_break(void *loop) { ev_break((struct ev_loop *)loop, EVBREAK_ALL); }
static inline void clws_ev_loop_destroy(void *loop) { ev_loop_destroy((struct ev_loop *)loop); }

/* A repeating libev timer that wakes lws through lws_cancel_service, so that lws services its ripe timers (close
   acks, handshake timeouts) at most one period late. lws 4.1.6's libev plugin re-arms its own timer with
   ev_timer_set on an active watcher, which libev ignores: an earlier timer set while a later one is armed waited
   for the later one or for unrelated socket traffic (docs/libwebsockets.md, "Timers under libev"). */
typedef struct clws_ev_tick {
    ev_timer timer; /* must stay first */
    struct lws_context *context;
} clws_ev_tick;

static void clws_ev_tick_fired(struct ev_loop *loop, ev_timer *timer, int revents) {
    (void)loop; (void)revents;
    lws_cancel_service(((clws_ev_tick *)timer)->context);
}

static inline void *clws_ev_tick_start(void *loop, struct lws_context *context, double seconds) {
    clws_ev_tick *tick = (clws_ev_tick *)calloc(1, sizeof(clws_ev_tick));
    if (!tick) return NULL;
    tick->context = context;
    ev_timer_init(&tick->timer, clws_ev_tick_fired, seconds, seconds);
    ev_timer_start((struct ev_loop *)loop, &tick->timer);
    return tick;
}

static inline void clws_ev_tick_stop(void *loop, void *tick) {
    if (!tick) return;
    ev_timer_stop((struct ev_loop *)loop, &((clws_ev_tick *)tick)->timer);
    free(tick);
}

/* lws_sul timers hand back only the lws_sorted_usec_list_t*; embed it first, followed by an owner pointer. */
typedef struct clws_timer {
    lws_sorted_usec_list_t sul; /* must stay first */
    void *owner;
} clws_timer;

static inline void *clws_timer_owner(lws_sorted_usec_list_t *sul) {
    return ((clws_timer *)sul)->owner;
}

/* Copies a header of the upgrade request into buf (NUL-terminated); returns its length or -1 when absent. */
static inline int clws_copy_header(struct lws *wsi, enum lws_token_indexes token, char *buf, int len) {
    if (lws_hdr_total_length(wsi, token) <= 0) return -1;
    return lws_hdr_copy(wsi, buf, len, token);
}
#endif
